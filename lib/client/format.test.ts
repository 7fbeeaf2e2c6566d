import { describe, expect, it } from 'vitest';
import { shortSessionId } from './format';

describe('shortSessionId', () => {
  it('[R17.3] shows a random id by its first eight characters', () => {
    expect(shortSessionId('3f2b9c1e-7d4a-4c11-9e0f-2a6b8c4d1e90')).toBe('3f2b9c1e');
    expect(shortSessionId('9f86d081884c7d659a2feaa0c55ad015')).toBe('9f86d081');
    expect(shortSessionId('session-3f2b9c1e-7d4a-4c11-9e0f-2a6b8c4d1e90')).toBe('3f2b9c1e');
  });

  it('[R17.3] keeps a chosen name whole, and cuts a long one with an ellipsis', () => {
    expect(shortSessionId('build-812')).toBe('build-812');
    expect(shortSessionId('session-1')).toBe('1');
    expect(shortSessionId('session')).toBe('session');
    expect(shortSessionId('nightly-release-candidate-7')).toBe('nightly-release…');
  });
});

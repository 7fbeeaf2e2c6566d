import { describe, expect, it } from 'vitest';
import { errorMessage, isRecord } from './unknown';

describe('reading unknown values', () => {
  it('[R10.4] isRecord accepts plain objects only', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord(JSON.parse('{"a":1}'))).toBe(true);
    for (const value of [null, undefined, [], 'x', 1, true]) expect(isRecord(value)).toBe(false);
  });

  it('errorMessage gives readable text for anything thrown', () => {
    expect(errorMessage(new TypeError('boom'))).toBe('boom');
    expect(errorMessage('plain text')).toBe('plain text');
    for (const value of [undefined, null, { code: 1 }, 42]) expect(errorMessage(value)).toBe('unknown error');
  });
});

import { describe, expect, it } from 'vitest';
import { REMOTE_PROTOCOL_VERSION } from '../contracts/limits';
import { cachedHostView, type CachedHost } from './state-cache';
import { at, questionView } from './test-support/fixtures';

const saved: CachedHost = {
  hostUrl: '',
  lastSeq: 7,
  interactions: [questionView('q1')],
  preferences: null,
  hostVersion: 'test',
  clockOffsetMs: 0,
  seenAt: at(20),
  protocolVersion: REMOTE_PROTOCOL_VERSION,
};

describe('the saved host state (cache-first start)', () => {
  it('[R9.13] shows a saved inbox of this host as cached, not live, with when it was seen', () => {
    const view = cachedHostView(saved, '');
    expect(view).toMatchObject({ cached: true, hasSnapshot: false, seenAt: at(20), lastSeq: 0, machines: [] });
    expect([...(view?.interactions.keys() ?? [])]).toEqual(['q1']);
  });

  it("[R9.13] shows nothing saved for another host, or by an app speaking another protocol (its views lack today's fields)", () => {
    expect(cachedHostView(saved, 'https://other.example')).toBeNull();
    expect(cachedHostView({ ...saved, protocolVersion: REMOTE_PROTOCOL_VERSION - 1 }, '')).toBeNull();
    const { protocolVersion: _unused, ...older } = saved;
    expect(cachedHostView(older, '')).toBeNull();
    expect(cachedHostView(undefined, '')).toBeNull();
  });
});

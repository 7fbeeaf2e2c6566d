import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type JoinedHubFile } from '../contracts';
import { DEFAULT_HOST_URL, resolveHostTarget } from './host-address';
import { readJoinedHub, writeJoinedHub } from './joined-hub';
import { describeConnectionFailure } from './transport-errors';

const HUB: JoinedHubFile = {
  url: 'https://hub.tailnet.ts.net/',
  credential: `aw_m_0123456789abcdef_${'s'.repeat(43)}`,
  machine: { id: '0123456789abcdef', name: 'laptop' },
  hubName: 'hub-box',
  joinedAt: '2026-01-01T00:00:00.000Z',
};

function dataDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'askaway-target-'));
}

describe('[R17.1][R17.8] which host a runtime uses', () => {
  it('[R17.8] environment, then the joined hub, then the local host, then the default', () => {
    const dir = dataDir();
    writeFileSync(path.join(dir, 'token'), 'local-token\n');
    expect(resolveHostTarget({ ASKAWAY_DATA_DIR: dir })).toEqual({
      url: DEFAULT_HOST_URL,
      token: 'local-token',
      source: 'default',
    });
    writeFileSync(path.join(dir, 'host.json'), JSON.stringify({ url: 'http://127.0.0.1:5000', pid: 1 }));
    expect(resolveHostTarget({ ASKAWAY_DATA_DIR: dir })).toMatchObject({
      url: 'http://127.0.0.1:5000',
      token: 'local-token',
      source: 'local',
    });
    writeJoinedHub(dir, HUB);
    expect(resolveHostTarget({ ASKAWAY_DATA_DIR: dir })).toEqual({
      url: 'https://hub.tailnet.ts.net',
      token: HUB.credential,
      source: 'joined',
      hub: { name: 'hub-box', machineName: 'laptop' },
    });
    expect(resolveHostTarget({ ASKAWAY_DATA_DIR: dir, ASKAWAY_TOKEN: 'env-token' }).token).toBe('env-token');
    // An explicit URL wins; the joined credential goes along only to the joined hub itself.
    expect(resolveHostTarget({ ASKAWAY_DATA_DIR: dir, ASKAWAY_URL: 'http://other.test:1' })).toEqual({
      url: 'http://other.test:1',
      token: 'local-token',
      source: 'env',
    });
    expect(resolveHostTarget({ ASKAWAY_DATA_DIR: dir, ASKAWAY_URL: 'https://hub.tailnet.ts.net' })).toMatchObject({
      token: HUB.credential,
      source: 'env',
      hub: { name: 'hub-box' },
    });
  });

  it('[R17.1] keeps the hub file owner-only, and a damaged one is named, never used', () => {
    const dir = path.join(dataDir(), 'fresh');
    const file = writeJoinedHub(dir, HUB);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readJoinedHub(dir)).toEqual({ kind: 'joined', hub: HUB });
    writeFileSync(file, '{"url": "http://x"}');
    expect(readJoinedHub(dir)).toEqual({ kind: 'unreadable', reason: expect.stringMatching(/askaway join/) });
    expect(resolveHostTarget({ ASKAWAY_DATA_DIR: dir })).toMatchObject({
      source: 'default',
      joinProblem: expect.stringContaining('hub.json'),
    });
  });
});

describe('[R17.7] connection failures in words', () => {
  it('[R17.7] an untrusted certificate points at NODE_EXTRA_CA_CERTS; other failures keep their own message', () => {
    const tls = Object.assign(new Error('unable to verify the first certificate'), {
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
    const wrapped = Object.assign(new Error('websocket error'), { description: { message: tls.message, error: tls } });
    expect(describeConnectionFailure(wrapped)).toMatch(
      /^its TLS certificate is not trusted here \(unable to verify the first certificate\): .+NODE_EXTRA_CA_CERTS/,
    );
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4417'), { code: 'ECONNREFUSED' });
    expect(
      describeConnectionFailure(Object.assign(new Error('websocket error'), { description: { error: refused } })),
    ).toBe('connect ECONNREFUSED 127.0.0.1:4417');
  });
});

import { describe, expect, it, vi } from 'vitest';
import { type Pairing } from './pairing';
import {
  changeRole,
  handOver,
  mintJoinCode,
  readAudit,
  readTeam,
  removeGroup,
  removePerson,
  saveGroup,
  TeamRequestError,
} from './team-api';

const PAIRING: Pairing = {
  hostUrl: 'https://hub.example.com/',
  hostName: 'hub',
  deviceId: '0123456789abcdef',
  deviceName: 'Pixel',
  credential: `aw_d_0123456789abcdef_${'a'.repeat(43)}`,
};

const ANA = { id: 'p-ana', name: 'Ana Lima', email: 'ana@example.com', role: 'owner', groups: [] };
const BEN = { id: 'p-ben', name: 'Ben Ortiz', role: 'member', groups: ['g-ci'], lastSignInAt: '2026-12-07T14:02:00Z' };
const TEAM = {
  me: { id: 'p-ana', name: 'Ana Lima', email: 'ana@example.com', role: 'owner' },
  canManage: true,
  people: [ANA, BEN],
  groups: [{ id: 'g-ci', name: 'CI runners', members: ['p-ben'], providerGroup: 'ci' }],
};

function answering(status: number, body?: unknown) {
  return vi.fn<typeof fetch>(() =>
    Promise.resolve(body === undefined ? new Response(null, { status }) : Response.json(body, { status })),
  );
}

function sent(fetchImpl: ReturnType<typeof answering>, call = 0): { url: string; init: RequestInit; body: unknown } {
  const args = fetchImpl.mock.calls[call];
  if (!args) throw new Error(`no call ${call}`);
  const [url, init = {}] = args;
  return { url: String(url), init, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined };
}

describe('[R21.75][R21.86] the team, asked of the device’s own hub with its own credential', () => {
  it('[R21.75] reads GET /api/team with the device credential as a bearer token, never a cookie', async () => {
    const fetchImpl = answering(200, TEAM);
    expect(await readTeam(PAIRING, fetchImpl)).toEqual(TEAM);
    const { url, init } = sent(fetchImpl);
    expect(url).toBe('https://hub.example.com/api/team');
    expect(init.method).toBe('GET');
    expect(init.headers).toEqual({ Authorization: `Bearer ${PAIRING.credential}` });
    expect(init.credentials).toBe('omit');
  });

  it('[R21.86] an answer that is not a team is an error, never an empty team', async () => {
    await expect(readTeam(PAIRING, answering(200, { ...TEAM, canManage: 'yes' }))).rejects.toThrow(
      /Unexpected reply to \/api\/team: canManage/,
    );
    await expect(readTeam(PAIRING, answering(200, { ...TEAM, extra: 1 }))).rejects.toThrow(TeamRequestError);
    await expect(readTeam(PAIRING, answering(200))).rejects.toThrow('Unexpected reply');
  });

  it('[R21.86] a refusal carries the hub’s own words and status; one without them says the status', async () => {
    const refusal = answering(403, { error: { code: 'forbidden', message: 'Only owners and admins may do that' } });
    const error = await changeRole(PAIRING, 'p-ben', 'admin', refusal).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(TeamRequestError);
    expect(error).toMatchObject({ message: 'Only owners and admins may do that', status: 403 });
    await expect(removePerson(PAIRING, 'p-ben', answering(502))).rejects.toThrow('HTTP 502');
  });
});

describe('[R21.77][R21.79][R21.81][R21.82] changes, each the hub’s to make', () => {
  it('[R21.79] a role change and a removal POST to the person’s own path', async () => {
    const fetchImpl = answering(200, {});
    await changeRole(PAIRING, 'p/ben', 'admin', fetchImpl);
    await removePerson(PAIRING, 'p-ben', fetchImpl);
    expect(sent(fetchImpl, 0)).toMatchObject({
      url: 'https://hub.example.com/api/team/people/p%2Fben/role',
      init: { method: 'POST' },
      body: { role: 'admin' },
    });
    expect(sent(fetchImpl, 1)).toMatchObject({ url: 'https://hub.example.com/api/team/people/p-ben/remove', body: {} });
  });

  it('[R21.81] a group is created, changed and removed; input the hub would refuse is never sent', async () => {
    const fetchImpl = answering(200, {});
    await saveGroup(PAIRING, { name: ' CI runners ', members: ['p-ben'], providerGroup: 'ci' }, undefined, fetchImpl);
    await saveGroup(PAIRING, { name: 'CI', members: [] }, 'g-ci', fetchImpl);
    await removeGroup(PAIRING, 'g-ci', fetchImpl);
    expect(sent(fetchImpl, 0)).toMatchObject({
      url: 'https://hub.example.com/api/team/groups',
      body: { name: 'CI runners', members: ['p-ben'], providerGroup: 'ci' },
    });
    expect(sent(fetchImpl, 1)).toMatchObject({ url: 'https://hub.example.com/api/team/groups/g-ci' });
    expect(sent(fetchImpl, 2)).toMatchObject({ url: 'https://hub.example.com/api/team/groups/g-ci/remove' });

    const untouched = answering(200, {});
    await expect(saveGroup(PAIRING, { name: '   ', members: [] }, undefined, untouched)).rejects.toThrow(
      /The group name/,
    );
    await expect(saveGroup(PAIRING, { name: 'a\u0007b', members: [] }, undefined, untouched)).rejects.toThrow(
      TeamRequestError,
    );
    expect(untouched).not.toHaveBeenCalled();
  });

  it('[R21.77] a hand-over names the question and the person', async () => {
    const fetchImpl = answering(200, {});
    await handOver(PAIRING, { requestId: 'req-1', toPersonId: 'p-ben' }, fetchImpl);
    expect(sent(fetchImpl)).toMatchObject({
      url: 'https://hub.example.com/api/team/hand-over',
      body: { requestId: 'req-1', toPersonId: 'p-ben' },
    });
  });

  it('[R21.82] a join code for one’s own machine, or for a group’s, read with its schema', async () => {
    const code = {
      code: 'abc',
      hubUrl: 'https://hub.example.com',
      command: 'askaway join https://hub.example.com abc',
      expiresAt: '2026-12-07T14:12:00Z',
    };
    const fetchImpl = answering(201, code);
    expect(await mintJoinCode(PAIRING, undefined, fetchImpl)).toEqual(code);
    expect(await mintJoinCode(PAIRING, 'g-ci', fetchImpl)).toEqual(code);
    expect(sent(fetchImpl, 0)).toMatchObject({ url: 'https://hub.example.com/api/device/join-codes', body: {} });
    expect(sent(fetchImpl, 1).body).toEqual({ groupId: 'g-ci' });
    await expect(mintJoinCode(PAIRING, undefined, answering(201, { code: 'abc' }))).rejects.toThrow('Unexpected reply');
    await expect(
      mintJoinCode(PAIRING, undefined, answering(429, { error: { code: 'rate-limited', message: 'Too many' } })),
    ).rejects.toMatchObject({ status: 429, message: 'Too many' });
  });
});

describe('[R21.84] the audit record, page by page', () => {
  const line = {
    seq: 41,
    at: '2026-12-07T14:02:00Z',
    action: 'answer',
    outcome: 'refused',
    actor: { personId: 'p-ben', personName: 'Ben Ortiz', deviceName: 'Pixel', address: '203.0.113.7', via: 'app' },
    target: { kind: 'question', id: 'req-1' },
    detail: 'not this person’s question',
  };

  it('[R21.84] the newest page, then the one before nextBefore', async () => {
    const fetchImpl = answering(200, { entries: [line], nextBefore: 41 });
    expect(await readAudit(PAIRING, undefined, fetchImpl)).toEqual({ entries: [line], nextBefore: 41 });
    await readAudit(PAIRING, 41, fetchImpl);
    expect(sent(fetchImpl, 0).url).toBe('https://hub.example.com/api/team/audit');
    expect(sent(fetchImpl, 1).url).toBe('https://hub.example.com/api/team/audit?before=41');
    await expect(
      readAudit(PAIRING, undefined, answering(200, { entries: [{ ...line, outcome: 'maybe' }] })),
    ).rejects.toThrow(/Unexpected reply to \/api\/team\/audit/);
  });
});

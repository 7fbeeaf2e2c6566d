import { type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AuditPageSchema,
  interactionKey,
  JoinCodeResponseSchema,
  type AuditLine,
  type InteractionResponse,
} from '../../contracts';
import { type Host } from '../create-host';
import { setUpPgTestLogs } from '../store/test-support/pg-test-logs';
import { closeAllClients, connectRemote, connectRuntime } from '../test-support/clients';
import { pairDevice, postJson, readAdminToken } from '../test-support/devices';
import { questionRequest } from '../test-support/fixtures';
import { redeemJoinCode } from '../test-support/machines';
import { cliIn } from '../test-support/spawn-cli';
import { closeAllHosts, startTestHost, tempDir, TEST_TOKEN } from '../test-support/test-host';
import { ANA, startTestOidcProvider, type TestPerson } from '../people/test-support/oidc-test-provider';
import { SignInBrowser } from '../people/test-support/sign-in-browser';

// The audit record of a team hub (R21.21, R21.60–R21.69): each action with who, which device, when, from what
// address and how, in the action's own commit; refused attempts too. On SQLite, and on PostgreSQL with two replicas
// where the action goes through one replica and the record is read through the other.

const CLIENT_ID = 'askaway-audit';
const CLIENT_SECRET = 'audit-client-secret-0123456789abcdef';
const OLA: TestPerson = {
  login: 'ola',
  password: 'ola-password',
  sub: 'sub-ola-5e10',
  email: 'ola@example.com',
  name: 'Ola Berg',
  groups: [],
};
/** The address a trusted proxy says the client has. */
const FORWARDED = '203.0.113.7';

const logs = setUpPgTestLogs();
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  closeAllClients();
  await closeAllHosts();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Person {
  deviceId: string;
  credential: string;
}

interface Team {
  /** Where things are done. */
  act: Host;
  /** Where the record is read: the other replica on PostgreSQL. */
  read: Host;
  ola: Person;
  ana: Person;
  anaMachine: { credential: string; machineId: string };
}

async function startHubs(backend: 'sqlite' | 'pg', issuer: string): Promise<[Host, Host]> {
  const people = { issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, ownerEmail: OLA.email };
  // Loopback is the proxy: a request that says X-Forwarded-For is recorded from the address it names.
  const common = { token: TEST_TOKEN, people, trustedProxies: ['127.0.0.1'] };
  if (backend === 'sqlite') {
    const hub = await startTestHost(common);
    return [hub, hub];
  }
  const url = await logs.freshLogUrl();
  const a = await startTestHost({ ...common, databaseUrl: url, dataDir: tempDir('askaway-audit-a-') });
  const b = await startTestHost({
    ...common,
    databaseUrl: url,
    publicUrl: a.url,
    dataDir: tempDir('askaway-audit-b-'),
  });
  return [a, b];
}

async function signInAndPair(hub: Host, person: TestPerson): Promise<Person> {
  const browser = new SignInBrowser();
  const { callbackUrl } = await browser.signInAtProvider(hub.url, person);
  const landed = await browser.get(callbackUrl);
  expect(landed.status).toBe(303);
  const code = new URLSearchParams(new URL(landed.location ?? '').hash.slice(1)).get('code');
  const paired = await postJson(`${hub.url}/api/pair`, { code, name: `${person.name}’s phone`, platform: 'Test' });
  expect(paired.status).toBe(200);
  return paired.json as Person;
}

async function team(backend: 'sqlite' | 'pg'): Promise<Team> {
  const provider = await startTestOidcProvider({ people: [OLA, ANA] });
  cleanups.push(() => provider.close());
  const [act, read] = await startHubs(backend, provider.issuer);
  provider.addClient({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUris: [`${act.url}/auth/callback`] });
  const ola = await signInAndPair(act, OLA);
  const ana = await signInAndPair(act, ANA);
  const minted = await postJson(`${act.url}/api/device/join-codes`, {}, { Authorization: `Bearer ${ana.credential}` });
  expect(minted.status).toBe(201);
  const joined = await redeemJoinCode(act.url, JoinCodeResponseSchema.parse(minted.json).code, 'ana-laptop');
  return { act, read, ola, ana, anaMachine: { credential: joined.credential, machineId: joined.machine.id } };
}

async function ask(hub: Host, asker: { credential: string; machineId: string }, header: string): Promise<string> {
  const runtime = await connectRuntime(hub.url, asker.credential, `runtime-${header}`);
  const request = questionRequest();
  if (request.kind !== 'question' || !request.input.questions[0]) throw new Error('questionRequest asks a question');
  request.input.questions[0].header = header;
  const ack: unknown = await runtime.socket.emitWithAck('announce', request);
  expect(ack, JSON.stringify(ack)).toMatchObject({ ok: true, status: 'pending' });
  return interactionKey(asker.machineId, request.requestId);
}

const ACCEPT: InteractionResponse = {
  action: 'accept',
  content: { answers: { 'Which database?': 'SQLite', 'Which extras?': 'Metrics' } },
};

async function auditPage(hub: Host, credential: string | undefined, query = '', headers: Record<string, string> = {}) {
  const reply = await fetch(`${hub.url}/api/team/audit${query}`, {
    headers: { ...(credential !== undefined ? { Authorization: `Bearer ${credential}` } : {}), ...headers },
  });
  return { status: reply.status, json: (await reply.json()) as unknown };
}

/** The whole record, oldest first, as the owner's device reads it on `hub`. */
async function record(hub: Host, owner: Person): Promise<AuditLine[]> {
  const reply = await auditPage(hub, owner.credential, '?limit=200');
  expect(reply.status).toBe(200);
  return AuditPageSchema.parse(reply.json).entries.reverse();
}

describe.each([
  ['SQLite', 'sqlite'],
  ['PostgreSQL with two replicas', 'pg'],
] as const)('[R21.21] the audit record, on %s', (_label, backend) => {
  it('[R21.60][R21.61][R21.68] sign-ins, pairings, a join code, a join, an answer, a skip and a decline are recorded with who, which device, when, from where and how; phones never hear of it', async () => {
    const { act, read, ola, ana, anaMachine } = await team(backend);
    const anaPerson = act.registry.projection.devices.get(ana.deviceId)?.personId;
    const first = await ask(act, anaMachine, 'First');
    const second = await ask(act, anaMachine, 'Second');
    const third = await ask(act, anaMachine, 'Third');
    const anaPhone = await connectRemote(act.url, ana.credential);
    const socket = anaPhone.socket as unknown as Socket;
    expect(
      await socket.emitWithAck('respond', { requestId: first, clientResponseId: 'a1', response: ACCEPT }),
    ).toMatchObject({ ok: true });
    // The notification's button, through the trusted proxy.
    const skipped = await postJson(
      `${act.url}/api/respond`,
      { requestId: second, clientResponseId: 'a2', response: { action: 'cancel' } },
      { Authorization: `Bearer ${ana.credential}`, 'X-Forwarded-For': FORWARDED },
    );
    expect(skipped.json).toMatchObject({ ack: { ok: true, status: 'accepted' } });
    expect(
      await socket.emitWithAck('respond', {
        requestId: third,
        clientResponseId: 'a3',
        response: { action: 'decline', message: 'no' },
      }),
    ).toMatchObject({ ok: true });

    const lines = await record(read, ola);
    const ana_ = {
      personId: anaPerson,
      personName: 'Ana Lima',
      deviceId: ana.deviceId,
      deviceName: 'Ana Lima’s phone',
    };
    expect(lines.map((line) => [line.action, line.outcome, line.actor.via])).toEqual([
      ['sign-in', 'done', 'sign-in'],
      ['pairing', 'done', 'sign-in'],
      ['sign-in', 'done', 'sign-in'],
      ['pairing', 'done', 'sign-in'],
      ['join-code-minted', 'done', 'api'],
      ['machine-joined', 'done', 'join'],
      ['answer', 'done', 'app'],
      ['skip', 'done', 'notification'],
      ['decline', 'done', 'app'],
    ]);
    const [, , , pairing, minted, joined, answered, skip, decline] = lines;
    expect(pairing).toMatchObject({
      actor: { ...ana_, address: '127.0.0.1' },
      target: { kind: 'device', id: ana.deviceId },
    });
    expect(minted).toMatchObject({ actor: ana_, target: { kind: 'person', id: anaPerson, name: 'Ana Lima' } });
    expect(joined).toMatchObject({
      actor: { personId: anaPerson, via: 'join' },
      target: { kind: 'machine', id: anaMachine.machineId, name: 'ana-laptop' },
    });
    expect(answered).toMatchObject({
      actor: { ...ana_, address: '127.0.0.1' },
      target: { kind: 'question', id: first },
    });
    expect(skip).toMatchObject({ actor: { ...ana_, address: FORWARDED }, target: { kind: 'question', id: second } });
    expect(decline?.target).toMatchObject({ kind: 'question', id: third });
    // When: the answer's own time, in the same commit as the answer.
    const resolved = (await act.registry.readSince(0, 1000)).find(
      (event) => event.type === 'interaction.resolved' && event.resolution.requestId === first,
    );
    expect(answered?.at).toBe(resolved?.at);
    expect(answered?.seq).toBe((resolved?.seq ?? 0) + 1);
    // The owner's phone never hears of the record (R21.68).
    const olaPhone = await connectRemote(read.url, ola.credential);
    await ask(act, anaMachine, 'Fourth');
    await vi.waitFor(() => expect(olaPhone.events.some((event) => event.type === 'interaction.requested')).toBe(true));
    expect(JSON.stringify([anaPhone.events, olaPhone.events, olaPhone.snapshots])).not.toContain('audit');
  });

  it('[R21.60] revocations from the app and from the admin token, and a person removed, are recorded', async () => {
    const { act, read, ola, ana, anaMachine } = await team(backend);
    const olaPhone = await connectRemote(act.url, ola.credential);
    const socket = olaPhone.socket as unknown as Socket;
    expect(await socket.emitWithAck('machines:revoke', { machineId: anaMachine.machineId })).toEqual({ ok: true });
    const spare = await postJson(
      `${act.url}/api/admin/devices/${ana.deviceId}/revoke`,
      {},
      { Authorization: `Bearer ${readAdminToken(act.dataDir)}` },
    );
    expect(spare.status).toBe(200);
    const anaPerson = act.registry.projection.devices.get(ana.deviceId)?.personId ?? '';
    const removed = await postJson(
      `${act.url}/api/admin/people/${anaPerson}/revoke`,
      {},
      { Authorization: `Bearer ${readAdminToken(act.dataDir)}`, 'X-Forwarded-For': FORWARDED },
    );
    expect(removed.status).toBe(200);
    const lines = (await record(read, ola)).slice(-3);
    expect(lines).toEqual([
      expect.objectContaining({
        action: 'machine-revoked',
        actor: expect.objectContaining({ deviceId: ola.deviceId, personName: 'Ola Berg', via: 'app' }),
        target: { kind: 'machine', id: anaMachine.machineId, name: 'ana-laptop' },
      }),
      expect.objectContaining({
        action: 'device-revoked',
        actor: { via: 'cli', address: '127.0.0.1' },
        target: { kind: 'device', id: ana.deviceId, name: 'Ana Lima’s phone' },
      }),
      expect.objectContaining({
        action: 'person-removed',
        actor: { via: 'cli', address: FORWARDED },
        target: { kind: 'person', id: anaPerson, name: 'Ana Lima' },
      }),
    ]);
  });

  it('[R21.62] a member’s answer to another’s question, by the socket and by POST /api/respond, is refused exactly as before and recorded with the question’s id; so is revoking another’s device or machine', async () => {
    const { act, read, ola, ana } = await team(backend);
    const owners = await ask(act, { credential: TEST_TOKEN, machineId: 'local' }, 'Owner’s');
    const anaPhone = await connectRemote(read.url, ana.credential);
    const socket = anaPhone.socket as unknown as Socket;
    await vi.waitFor(() => expect(read.registry.projection.get(owners)?.status).toBe('pending'));
    const refusal = { ok: false, error: { code: 'unknown-interaction', message: `No interaction ${owners}` } };
    expect(
      await socket.emitWithAck('respond', { requestId: owners, clientResponseId: 'r1', response: ACCEPT }),
    ).toEqual(refusal);
    const byPost = await postJson(
      `${read.url}/api/respond`,
      { requestId: owners, clientResponseId: 'r2', response: { action: 'cancel' } },
      { Authorization: `Bearer ${ana.credential}`, 'X-Forwarded-For': FORWARDED },
    );
    expect(byPost).toEqual({ status: 200, json: { ack: refusal } });
    // A question that does not exist is not recorded: nothing was attempted on anything.
    expect(
      await socket.emitWithAck('respond', { requestId: 'nothing-here', clientResponseId: 'r3', response: ACCEPT }),
    ).toMatchObject({ ok: false });
    expect(await socket.emitWithAck('devices:revoke', { deviceId: ola.deviceId })).toMatchObject({
      ok: false,
      error: { code: 'unknown-device' },
    });
    for (const hub of new Set([act, read])) {
      expect(hub.registry.projection.get(owners)?.status).toBe('pending');
      expect(hub.registry.projection.devices.get(ola.deviceId)?.revokedAt).toBeUndefined();
    }
    const refused = (await record(act, ola)).filter((line) => line.outcome === 'refused');
    const anaActor = expect.objectContaining({ deviceId: ana.deviceId, personName: 'Ana Lima' });
    expect(refused).toEqual([
      expect.objectContaining({
        action: 'answer',
        actor: anaActor,
        target: expect.objectContaining({ kind: 'question', id: owners }),
      }),
      expect.objectContaining({
        action: 'skip',
        actor: expect.objectContaining({ via: 'notification', address: FORWARDED }),
        target: expect.objectContaining({ id: owners }),
      }),
      expect.objectContaining({
        action: 'device-revoked',
        actor: anaActor,
        target: { kind: 'device', id: ola.deviceId },
      }),
    ]);
  });

  it('[R21.63] a credential cannot flood the record: five refused attempts a minute are recorded, the rest counted', async () => {
    const { act, read, ola, ana } = await team(backend);
    const owners = await ask(act, { credential: TEST_TOKEN, machineId: 'local' }, 'Owner’s');
    const anaPhone = await connectRemote(act.url, ana.credential);
    const socket = anaPhone.socket as unknown as Socket;
    for (let attempt = 0; attempt < 12; attempt += 1)
      expect(
        await socket.emitWithAck('respond', { requestId: owners, clientResponseId: `f${attempt}`, response: ACCEPT }),
      ).toMatchObject({ ok: false });
    const refused = (await record(read, ola)).filter((line) => line.outcome === 'refused');
    expect(refused).toHaveLength(5);
  });

  it('[R21.67] GET /api/team/audit: the owner’s device pages newest first, the operator’s reads it too; no credential 401, a member 403, bad paging 400, another origin 403', async () => {
    const { act, read, ola, ana, anaMachine } = await team(backend);
    expect((await auditPage(read, undefined)).status).toBe(401);
    expect((await auditPage(read, anaMachine.credential)).status).toBe(401);
    // The agent token and a machine's credential open no device route.
    expect((await auditPage(read, TEST_TOKEN)).status).toBe(401);
    expect(await auditPage(read, ana.credential)).toMatchObject({
      status: 403,
      json: { error: { code: 'forbidden' } },
    });
    expect((await auditPage(read, ola.credential, '?limit=0')).status).toBe(400);
    expect((await auditPage(read, ola.credential, '?before=x')).status).toBe(400);
    expect((await auditPage(read, ola.credential, '', { Origin: 'https://evil.example' })).status).toBe(403);
    const firstPage = AuditPageSchema.parse((await auditPage(read, ola.credential, '?limit=4')).json);
    expect(firstPage.entries.map((line) => line.action)).toEqual([
      'machine-joined',
      'join-code-minted',
      'pairing',
      'sign-in',
    ]);
    expect(firstPage.nextBefore).toBe(firstPage.entries.at(-1)?.seq);
    const rest = AuditPageSchema.parse(
      (await auditPage(read, ola.credential, `?limit=4&before=${firstPage.nextBefore}`)).json,
    );
    expect(rest.entries.map((line) => line.action)).toEqual(['pairing', 'sign-in']);
    expect(rest.nextBefore).toBeUndefined();
    // A device paired with a link from `askaway pair` is the operator's: it manages the team, and reads the record.
    const operator = await pairDevice(act, 'Operator phone');
    await vi.waitFor(async () => {
      const operatorPage = await auditPage(read, operator.credential, '?limit=4');
      expect(operatorPage.status).toBe(200);
      expect(AuditPageSchema.parse(operatorPage.json)).toEqual(firstPage);
    });
  });
});

describe('[R21.66] askaway audit', () => {
  it('[R21.66] prints the record as JSON lines oldest first, --since a duration or an ISO time; a bad --since is a usage error', async () => {
    const { act, ola } = await team('sqlite');
    const all = await cliIn(act.dataDir, 'audit');
    expect(all).toMatchObject({ code: 0, stderr: '' });
    const lines = all.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as AuditLine);
    expect(lines.map((line) => line.action)).toEqual([
      'sign-in',
      'pairing',
      'sign-in',
      'pairing',
      'join-code-minted',
      'machine-joined',
    ]);
    expect(lines.map((line) => line.seq)).toEqual([...lines.map((line) => line.seq)].sort((a, b) => a - b));
    expect(lines[1]).toMatchObject({ actor: { deviceId: ola.deviceId, personName: 'Ola Berg' } });

    const recent = await cliIn(act.dataDir, 'audit', '--since', '1h');
    expect(recent.stdout).toBe(all.stdout);
    const later = new Date(Date.parse(lines.at(-1)?.at ?? '') + 1).toISOString();
    expect(await cliIn(act.dataDir, 'audit', '--since', later)).toMatchObject({ code: 0, stdout: '' });
    const bad = await cliIn(act.dataDir, 'audit', '--since', 'yesterday');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--since takes an ISO time .* got "yesterday"/);
  });

  it('[R21.65] a hub without people keeps no record: its log has no audit entry, the audit routes are not found', async () => {
    const hub = await startTestHost({ token: TEST_TOKEN });
    const pairedReply = await postJson(
      `${hub.url}/api/admin/pairing-codes`,
      {},
      { Authorization: `Bearer ${readAdminToken(hub.dataDir)}` },
    );
    const { code } = pairedReply.json as { code: string };
    const paired = (await postJson(`${hub.url}/api/pair`, { code, name: 'Phone', platform: 'Test' })).json as Person;
    const asked = await ask(hub, { credential: TEST_TOKEN, machineId: 'local' }, 'Personal');
    const phone = await connectRemote(hub.url, paired.credential);
    expect(
      await (phone.socket as unknown as Socket).emitWithAck('respond', {
        requestId: asked,
        clientResponseId: 'p',
        response: ACCEPT,
      }),
    ).toMatchObject({ ok: true });
    expect((await hub.registry.readSince(0, 1000)).filter((event) => event.type === 'audit.recorded')).toEqual([]);
    expect((await auditPage(hub, paired.credential)).status).toBe(404);
    const cli = await cliIn(hub.dataDir, 'audit');
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/only a hub with people keeps one/);
  });
});

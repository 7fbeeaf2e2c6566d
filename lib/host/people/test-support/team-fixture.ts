import { type Socket } from 'socket.io-client';
import { expect } from 'vitest';
import {
  interactionKey,
  JoinCodeResponseSchema,
  PushPayloadSchema,
  type InteractionRequest,
  type PushPayload,
  type RespondAck,
} from '../../../contracts';
import { type Host } from '../../create-host';
import { startPush } from '../../push/start-push';
import { decryptWebPush, type makeSubscription, routeToSink, startRecordingServer } from '../../push/test-helpers';
import { type PgTestLogs } from '../../store/test-support/pg-test-logs';
import { closeAllClients, type connectRemote, connectRuntime } from '../../test-support/clients';
import { postJson } from '../../test-support/devices';
import { questionRequest } from '../../test-support/fixtures';
import { redeemJoinCode } from '../../test-support/machines';
import { closeAllHosts, startTestHost, tempDir, TEST_TOKEN } from '../../test-support/test-host';
import { ANA, BEN, startTestOidcProvider, type TestOidcProvider, type TestPerson } from './oidc-test-provider';
import { SignInBrowser } from './sign-in-browser';

// A team hub for the people tests: Ola the owner (named at start), Ana and Ben members, each with a phone (signed in
// at a real OpenID provider) and a machine joined with their phone's code. On SQLite, or on two PostgreSQL replicas
// where each person's phone, machine and sign-in go through different replicas.

export const CLIENT_ID = 'askaway-team';
export const CLIENT_SECRET = 'team-client-secret-0123456789abcdef';
export const OLA: TestPerson = {
  login: 'ola',
  password: 'ola-password',
  sub: 'sub-ola-5e10',
  email: 'ola@example.com',
  name: 'Ola Berg',
  groups: [],
};

const cleanups: (() => Promise<void>)[] = [];

/** Closes what the last test's team started: its clients, hubs, provider and push sink. Call it in afterEach. */
export async function closeTeam(): Promise<void> {
  closeAllClients();
  await closeAllHosts();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

export type Sink = Awaited<ReturnType<typeof startRecordingServer>>;

export interface Person {
  deviceId: string;
  credential: string;
  /** The replica their phone talks to. */
  hub: Host;
}

export interface Team {
  hubs: Host[];
  sink: Sink;
  ola: Person;
  ana: Person;
  ben: Person;
  /** Each member's machine's credential. */
  anaMachine: Asker;
  benMachine: Asker;
}

/** One hub on SQLite, or two replicas on one PostgreSQL log (the second names the first's address as public). */
export async function startHubs(
  logs: PgTestLogs,
  backend: 'sqlite' | 'pg',
  provider: TestOidcProvider,
): Promise<Host[]> {
  const people = { issuer: provider.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, ownerEmail: OLA.email };
  if (backend === 'sqlite') return [await startTestHost({ token: TEST_TOKEN, people })];
  const url = await logs.freshLogUrl();
  const a = await startTestHost({ databaseUrl: url, token: TEST_TOKEN, people, dataDir: tempDir('askaway-own-a-') });
  const b = await startTestHost({
    databaseUrl: url,
    token: TEST_TOKEN,
    people,
    publicUrl: a.url,
    dataDir: tempDir('askaway-own-b-'),
  });
  return [a, b];
}

/** Signs `person` in (the callback on `signInOn`), pairs the browser on `pairOn`: their phone. */
export async function signInAndPair(signInOn: Host, pairOn: Host, person: TestPerson): Promise<Person> {
  const browser = new SignInBrowser();
  const { callbackUrl } = await browser.signInAtProvider(signInOn.url, person);
  const landed = await browser.get(callbackUrl);
  expect(landed.status).toBe(303);
  const code = new URLSearchParams(new URL(landed.location ?? '').hash.slice(1)).get('code');
  const paired = await postJson(`${pairOn.url}/api/pair`, { code, name: `${person.name}’s phone`, platform: 'Test' });
  expect(paired.status).toBe(200);
  const { deviceId, credential } = paired.json as { deviceId: string; credential: string };
  return { deviceId, credential, hub: pairOn };
}

export interface Asker {
  credential: string;
  machineId: string;
}
export const HUB_AGENT: Asker = { credential: TEST_TOKEN, machineId: 'local' };

/** The person's phone mints a join code (on `mintOn`) and a machine joins with it (on `joinOn`). */
export async function joinMachineOf(person: Person, mintOn: Host, joinOn: Host, name: string): Promise<Asker> {
  const minted = await postJson(
    `${mintOn.url}/api/device/join-codes`,
    {},
    {
      Authorization: `Bearer ${person.credential}`,
    },
  );
  expect(minted.status).toBe(201);
  const { code } = JoinCodeResponseSchema.parse(minted.json);
  const joined = await redeemJoinCode(joinOn.url, code, name);
  return { credential: joined.credential, machineId: joined.machine.id };
}

export async function team(logs: PgTestLogs, backend: 'sqlite' | 'pg', extraPeople: TestPerson[] = []): Promise<Team> {
  const provider = await startTestOidcProvider({ people: [OLA, ANA, BEN, ...extraPeople] });
  cleanups.push(() => provider.close());
  const hubs = await startHubs(logs, backend, provider);
  const first = hubs[0] as Host;
  const last = hubs.at(-1) as Host;
  provider.addClient({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUris: [`${first.url}/auth/callback`],
  });
  const sink = await startRecordingServer();
  cleanups.push(() => sink.close());
  for (const hub of hubs) {
    // Questions within 300 ms reach a phone as one summary: the summary must count only the phone's own.
    const push = await startPush(hub, { collapseWindowMs: 300, fetch: routeToSink(sink.url), allowPrivatePush: true });
    cleanups.push(() => push.close());
  }
  const ola = await signInAndPair(first, first, OLA);
  const ana = await signInAndPair(first, first, ANA);
  const ben = await signInAndPair(first, last, BEN);
  // Ben's code is minted through one replica and redeemed through the other: the grant is the log's.
  const anaMachine = await joinMachineOf(ana, first, first, 'ana-laptop');
  const benMachine = await joinMachineOf(ben, last, first, 'ben-laptop');
  await caughtUp(hubs);
  return { hubs, sink, ola, ana, ben, anaMachine, benMachine };
}

/**
 * Every replica has folded what the others appended: a test of who sees what starts from one shared state, not
 * from how soon a replica hears of another's writes (that is R20.40's to test).
 */
export async function caughtUp(hubs: readonly Host[]): Promise<void> {
  for (const hub of hubs) await hub.registry.catchUp();
}

export function question(header: string): InteractionRequest {
  const request = questionRequest();
  if (request.kind !== 'question') throw new Error('questionRequest makes questions');
  const [first] = request.input.questions;
  if (!first) throw new Error('questionRequest asks one question');
  first.header = header;
  return request;
}

/** Announces through `on` as a machine (or the hub's own agent); returns the hub's id for the question. */
export async function ask(on: Host, asker: Asker, header: string): Promise<string> {
  const runtime = await connectRuntime(on.url, asker.credential, `runtime-${header}`);
  const request = question(header);
  const ack: unknown = await runtime.socket.emitWithAck('announce', request);
  expect(ack, JSON.stringify(ack)).toMatchObject({ ok: true, status: 'pending' });
  return interactionKey(asker.machineId, request.requestId);
}

export const answer = (label: string) => ({
  action: 'accept' as const,
  content: { answers: { 'Which database?': label, 'Which extras?': 'Metrics' } },
});

export function respondBySocket(socket: Socket, requestId: string, label: string): Promise<RespondAck> {
  return socket.emitWithAck('respond', {
    requestId,
    clientResponseId: `c-${label}`,
    response: answer(label),
  }) as Promise<RespondAck>;
}

/** What the phone's notification button sends (R14.10). */
export async function respondByHttp(hub: Host, person: Person, requestId: string, label: string) {
  const reply = await postJson(
    `${hub.url}/api/respond`,
    { requestId, clientResponseId: `h-${label}`, response: answer(label) },
    { Authorization: `Bearer ${person.credential}` },
  );
  return reply.json as { ack: RespondAck };
}

/** Every request id a remote was told of, by its snapshots and events. */
export function seenIds(remote: Awaited<ReturnType<typeof connectRemote>>): Set<string> {
  const ids = new Set<string>();
  for (const snapshot of remote.snapshots)
    for (const view of [...snapshot.pending, ...snapshot.history]) ids.add(view.requestId);
  for (const event of remote.events) {
    if (event.type === 'interaction.requested') ids.add(event.interaction.requestId);
    else if (event.type === 'interaction.resolved') ids.add(event.resolution.requestId);
    else if ('requestId' in event) ids.add(event.requestId);
  }
  return ids;
}

export function pushesTo(sink: Sink, person: Person, keys: ReturnType<typeof makeSubscription>): PushPayload[] {
  return sink.requests
    .filter((request) => request.path === `/push/${person.deviceId}`)
    .map((request) => PushPayloadSchema.parse(JSON.parse(decryptWebPush(request.body, keys))));
}

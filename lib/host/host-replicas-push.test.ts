import fs from 'node:fs';
import path from 'node:path';
import { type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PushPayloadSchema, type InteractionRequest, type PushPayload } from '../contracts';
import { type Host } from './create-host';
import { startPush } from './push/start-push';
import {
  decryptWebPush,
  makeSubscription,
  NTFY_TEST_ORIGIN,
  routeToSink,
  startRecordingServer,
  verifyVapid,
  type BrowserKeys,
} from './push/test-helpers';
import { asAdmin } from './store/test-support/pg-test-database';
import { setUpPgTestLogs } from './store/test-support/pg-test-logs';
import { closeAllClients, connectRemote, connectRuntime, tryConnect } from './test-support/clients';
import { pairDevice } from './test-support/devices';
import { questionRequest } from './test-support/fixtures';
import { closeAllHosts, startTestHost, tempDir } from './test-support/test-host';
import { RUNTIME_NAMESPACE, PROTOCOL_VERSION } from '../contracts';

/**
 * Push on a team hub (R20.60–R20.64): two replicas on one PostgreSQL log, phones subscribed through either, and a
 * recording server standing in for the push service and ntfy, which receives real Web Push requests.
 */
const logs = setUpPgTestLogs();
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  closeAllClients();
  await closeAllHosts();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Sink = Awaited<ReturnType<typeof startRecordingServer>>;

async function recordingSink(): Promise<Sink> {
  const sink = await startRecordingServer();
  cleanups.push(() => sink.close());
  return sink;
}

/** A replica as `askaway start --database` runs it: the host, then push, whose sends land on `sink`. */
async function replica(url: string, sink: Sink, options: { token?: string; dataDir?: string } = {}) {
  const host = await startTestHost({
    databaseUrl: url,
    // Each replica's own data dir; no ASKAWAY_TOKEN unless given: the team's comes from the database.
    dataDir: options.dataDir ?? tempDir('askaway-push-replica-'),
    token: options.token,
  });
  const push = await startPush(host, { collapseWindowMs: 10, fetch: routeToSink(sink.url), allowPrivatePush: true });
  cleanups.push(() => push.close());
  return { host, push };
}

type Replica = Awaited<ReturnType<typeof replica>>;

/** A phone paired and connected through `through`, its Web Push endpoint on the sink. */
async function phoneOn(through: Replica, sink: Sink, name: string) {
  const device = await pairDevice(through.host, name);
  const remote = await connectRemote(through.host.url, device.credential);
  const socket = remote.socket as unknown as Socket;
  const keys = makeSubscription(`${sink.url}/push/${device.deviceId}`);
  expect(await socket.emitWithAck('push:subscribe', { subscription: keys.subscription })).toMatchObject({ ok: true });
  return { ...device, socket, keys };
}

/** The decrypted Web Push payloads `keys`' endpoint received, oldest first. */
function received(sink: Sink, deviceId: string, keys: BrowserKeys): PushPayload[] {
  return sink.requests
    .filter((request) => request.path === `/push/${deviceId}`)
    .map((request) => PushPayloadSchema.parse(JSON.parse(decryptWebPush(request.body, keys))));
}

const titled = (payloads: readonly PushPayload[], title: string) =>
  payloads.filter((payload) => payload.type === 'show' && payload.title === title);

function question(header: string, overrides: Partial<InteractionRequest> = {}): InteractionRequest {
  const request = questionRequest(overrides);
  if (request.kind !== 'question') throw new Error('questionRequest makes questions');
  const [first] = request.input.questions;
  if (!first) throw new Error('questionRequest asks one question');
  first.header = header;
  first.question = `${header}?`;
  return request;
}

async function ask(on: Host, request: InteractionRequest): Promise<void> {
  const runtime = await connectRuntime(on.url, on.token, `runtime-${request.requestId}`);
  expect(await runtime.socket.emitWithAck('announce', request)).toMatchObject({ ok: true });
}

describe('[R20.62] a team hub sends each notification once, from the leader', () => {
  it('[R20.62][R20.60] a phone subscribed through B gets exactly one Web Push for a question asked on A', async () => {
    const url = await logs.freshLogUrl();
    const sink = await recordingSink();
    const a = await replica(url, sink);
    const b = await replica(url, sink);
    expect(a.host.leadership.leading).toBe(true);
    expect(b.host.leadership.leading).toBe(false);
    const phone = await phoneOn(b, sink, 'Phone on B');

    await ask(a.host, question('First'));
    await vi.waitFor(() => expect(titled(received(sink, phone.deviceId, phone.keys), 'First')).toHaveLength(1));
    // A later question's notification comes after any second copy of the first would have.
    await ask(b.host, question('Second'));
    await vi.waitFor(() => expect(titled(received(sink, phone.deviceId, phone.keys), 'Second')).toHaveLength(1));
    expect(titled(received(sink, phone.deviceId, phone.keys), 'First')).toHaveLength(1);
    expect(received(sink, phone.deviceId, phone.keys)).toHaveLength(2);
    // Signed with the team's key, the one the phone subscribed with through B.
    const request = sink.requests.find((candidate) => candidate.path === `/push/${phone.deviceId}`);
    expect(() =>
      verifyVapid(request?.headers.authorization, b.push.service.vapidPublicKey, phone.keys.subscription.endpoint),
    ).not.toThrow();
  });

  it('[R20.62][R20.60] an ntfy topic a phone set through B gets one message per question asked on A', async () => {
    const url = await logs.freshLogUrl();
    const sink = await recordingSink();
    const a = await replica(url, sink);
    const b = await replica(url, sink);
    const device = await pairDevice(b.host, 'Phone on B');
    const remote = await connectRemote(b.host.url, device.credential);
    const topicUrl = `${NTFY_TEST_ORIGIN}/team-topic`;
    expect(await (remote.socket as unknown as Socket).emitWithAck('push:ntfy', { topicUrl })).toMatchObject({
      ok: true,
    });
    // Both replicas see the topic: it is the database's.
    expect((await a.push.service.status('someone-else')).ntfyTopics).toHaveLength(1);

    const posts = () => sink.requests.filter((request) => request.path === '/team-topic');
    await ask(a.host, question('First'));
    await vi.waitFor(() => expect(posts()).toHaveLength(1));
    await ask(a.host, question('Second'));
    await vi.waitFor(() => expect(posts()).toHaveLength(2));
    expect(posts().map((post) => post.headers.title)).toEqual(['First', 'Second']);
  });

  it('[R20.63] a leader that loses the lock mid-delay: the next one sends the question once, and not what was sent', async () => {
    const url = await logs.freshLogUrl();
    const sink = await recordingSink();
    const a = await replica(url, sink);
    const b = await replica(url, sink);
    const phone = await phoneOn(b, sink, 'Phone on B');
    const shown = (title: string) => titled(received(sink, phone.deviceId, phone.keys), title);

    // Sent by A while it leads, at once. Asked as long ago as the next one: due for a new leader too, were it not sent.
    const longAgo = new Date(Date.now() - 29_500).toISOString();
    await ask(b.host, question('Sent', { createdAt: longAgo }));
    await vi.waitFor(() => expect(shown('Sent')).toHaveLength(1));
    await vi.waitFor(async () => expect((await a.host.sharedPush?.ledger.notified(pendingIds(a.host)))?.size).toBe(1));

    // "Notify my phone after 30 s": asked 29.5 s ago by the agent's clock, so the next leader finds it due at once.
    expect(await a.host.registry.updatePreferences({ notifyDelayMs: 30_000 })).toMatchObject({ ok: true });
    await ask(b.host, question('Held', { createdAt: longAgo }));
    const held = () => pendingIds(a.host).filter((id) => a.push.service.isHeld(id));
    await vi.waitFor(() => expect(held()).toHaveLength(1));
    expect(shown('Held')).toHaveLength(0);

    // The leader's session ends (a cut connection, a killed process): the server frees the lock.
    await asAdmin(
      `SELECT pg_terminate_backend(l.pid) FROM pg_locks l JOIN pg_stat_activity s ON s.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND s.application_name = 'askaway leader'
          AND s.datname = current_database()`,
      [],
      logs.databaseUrl(),
    );
    await vi.waitFor(() => expect(a.host.leadership.leading).toBe(false));
    expect(held()).toHaveLength(0);
    // Whichever takes the lock next (B, or A again on a new session) finds the question due and not sent.
    await vi.waitFor(() => expect(a.host.leadership.leading || b.host.leadership.leading).toBe(true), {
      timeout: 10_000,
    });

    await vi.waitFor(() => expect(shown('Held')).toHaveLength(1));
    await Promise.all([a.push.service.idle(), b.push.service.idle()]);
    expect(shown('Sent')).toHaveLength(1);
    expect(received(sink, phone.deviceId, phone.keys)).toHaveLength(2);
  }, 20_000);
});

/** The questions waiting, by the host's ids. */
function pendingIds(host: Host): string[] {
  return [...host.registry.projection.interactions.values()]
    .filter((view) => view.status === 'pending')
    .map((view) => view.requestId);
}

describe('[R20.64] someone looking through any replica holds back the leader’s notification', () => {
  it('[R20.64] a phone looking through B gets no notification from A; once it stops looking, the next question buzzes it', async () => {
    const url = await logs.freshLogUrl();
    const sink = await recordingSink();
    const a = await replica(url, sink);
    const b = await replica(url, sink);
    const phone = await phoneOn(b, sink, 'Phone on B');
    const lookingThroughB = async () => (await a.host.sharedPush?.presence.lookingElsewhere())?.has(phone.deviceId);

    expect(await phone.socket.emitWithAck('presence', { visible: true })).toEqual({ ok: true });
    await vi.waitFor(async () => expect(await lookingThroughB()).toBe(true));
    await ask(a.host, question('Seen'));
    await vi.waitFor(async () => expect((await a.host.sharedPush?.ledger.notified(pendingIds(a.host)))?.size).toBe(1));

    expect(await phone.socket.emitWithAck('presence', { visible: false })).toEqual({ ok: true });
    await vi.waitFor(async () => expect(await lookingThroughB()).toBe(false));
    await ask(a.host, question('Unseen'));
    await vi.waitFor(() => expect(titled(received(sink, phone.deviceId, phone.keys), 'Unseen')).toHaveLength(1));
    expect(received(sink, phone.deviceId, phone.keys)).toHaveLength(1);
  });
});

describe('[R20.61] the replicas share one agent token, one admin token and one VAPID key pair', () => {
  it('[R20.61] a second replica uses the first one’s keys and tokens, and writes the tokens into its own data dir', async () => {
    const url = await logs.freshLogUrl();
    const sink = await recordingSink();
    const a = await replica(url, sink);
    const b = await replica(url, sink);
    expect(b.host.token).toBe(a.host.token);
    expect(b.host.adminToken).toBe(a.host.adminToken);
    expect(b.push.service.vapidPublicKey).toBe(a.push.service.vapidPublicKey);
    for (const dataDir of [a.host.dataDir, b.host.dataDir]) {
      expect(fs.readFileSync(path.join(dataDir, 'token'), 'utf8').trim()).toBe(a.host.token);
      expect(fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim()).toBe(a.host.adminToken);
      expect(fs.statSync(path.join(dataDir, 'token')).mode & 0o777).toBe(0o600);
    }
    // An agent with the token is let in on either replica.
    for (const host of [a.host, b.host]) {
      expect(
        await tryConnect(host.url, RUNTIME_NAMESPACE, {
          token: a.host.token,
          protocolVersion: PROTOCOL_VERSION,
          runtimeId: 'agent',
        }),
      ).toBe('connected');
    }
  });

  it('[R20.61] the first replica brings its data dir’s token and keys; another data dir’s are replaced by the team’s', async () => {
    const url = await logs.freshLogUrl();
    const sink = await recordingSink();
    const first = tempDir('askaway-push-first-');
    fs.writeFileSync(path.join(first, 'token'), 'personal-agent-token-0123456789\n', { mode: 0o600 });
    const a = await replica(url, sink, { dataDir: first });
    expect(a.host.token).toBe('personal-agent-token-0123456789');

    const second = tempDir('askaway-push-second-');
    fs.writeFileSync(path.join(second, 'token'), 'another-agent-token-0123456789\n', { mode: 0o600 });
    const b = await replica(url, sink, { dataDir: second });
    expect(b.host.token).toBe('personal-agent-token-0123456789');
    expect(fs.readFileSync(path.join(second, 'token'), 'utf8').trim()).toBe('personal-agent-token-0123456789');
  });

  it('[R20.61] an ASKAWAY_TOKEN other than the team’s stops the start and writes nothing', async () => {
    const url = await logs.freshLogUrl();
    const sink = await recordingSink();
    await replica(url, sink);
    const dataDir = tempDir('askaway-push-wrong-token-');
    await expect(startTestHost({ databaseUrl: url, token: 'not-the-team-token-0123', dataDir })).rejects.toThrow(
      /ASKAWAY_TOKEN is not this team hub's agent token/,
    );
    expect(fs.existsSync(path.join(dataDir, 'token'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'admin-token'))).toBe(false);
  });
});

describe('[R20.64] a replica that closes', () => {
  it('[R20.64] takes its looking devices off the board at once, so they hold nothing back', async () => {
    const url = await logs.freshLogUrl();
    const sink = await recordingSink();
    const a = await replica(url, sink);
    const b = await replica(url, sink);
    const phone = await phoneOn(b, sink, 'Phone on B');
    const lookingThroughB = async () => (await a.host.sharedPush?.presence.lookingElsewhere())?.has(phone.deviceId);
    expect(await phone.socket.emitWithAck('presence', { visible: true })).toEqual({ ok: true });
    await vi.waitFor(async () => expect(await lookingThroughB()).toBe(true));
    // Push stopped first, so no goodbye from the phone's closing connection is published: the host's close withdraws.
    await b.push.close();
    expect(await lookingThroughB()).toBe(true);
    await b.host.close();
    expect(await lookingThroughB()).toBe(false);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Host } from '../lib/host';
import { closeAllClients, connectRemote, connectRuntime } from '../lib/host/test-support/clients';
import { pairDevice } from '../lib/host/test-support/devices';
import { questionRequest } from '../lib/host/test-support/fixtures';
import { closeAllHosts, startTestHost, TEST_TOKEN } from '../lib/host/test-support/test-host';
import { io } from 'socket.io-client';
import { attachPushChannel } from '../lib/client/push/channel';
import { createConnection, type Connection } from '../lib/client/connection';
import { createRemoteStore, type AnswerPhase, type RemoteStore } from '../lib/client/store';

// The PWA's connection against a real host over a real socket.io socket. The outbox always
// refuses, as IndexedDB does in private browsing: answers then live in memory only.
const connections: Connection[] = [];

afterEach(async () => {
  for (const connection of connections.splice(0)) connection.stop();
  closeAllClients();
  await closeAllHosts();
});

async function connect(host: Host) {
  const store = createRemoteStore();
  const synced: ('snapshot' | 'resume')[] = [];
  const revoked: string[] = [];
  const unavailable = () => Promise.reject(new Error('no IndexedDB'));
  const connection = createConnection({
    store,
    openSocket(url, auth) {
      const socket = io(url, { auth: (send) => send(auth()), transports: ['websocket'] });
      // As in the app: push reports presence on every connect (one more message per connect).
      attachPushChannel(socket);
      return socket;
    },
    outbox: { load: unavailable, put: unavailable, delete: unavailable },
    onSynced: (how) => synced.push(how),
    onRevoked: (id) => revoked.push(id),
  });
  connections.push(connection);
  const { deviceId, credential } = await pairDevice(host, 'Phone');
  connection.start({ hostUrl: host.url, hostName: host.hostName, deviceId, deviceName: 'Phone', credential });
  return { connection, store, synced, revoked, deviceId, getState: store.getState };
}

function recordPhases(store: RemoteStore, requestId: string): AnswerPhase[] {
  const phases: AnswerPhase[] = [];
  store.subscribe(() => {
    const phase = store.getState().answers.get(requestId)?.phase;
    if (phase && phases[phases.length - 1] !== phase) phases.push(phase);
  });
  return phases;
}

describe('remote connection: answers reach the host', () => {
  it('[R9.8][R12.3] an answer refused as rate-limited while connected is retried without waiting for a reconnect', async () => {
    // One message at once, one more per second: the connect-time presence report empties the bucket.
    const host = await startTestHost({ rateLimits: { remote: { capacity: 1, refillPerSecond: 1 } } });
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const request = questionRequest();
    await runtime.socket.emitWithAck('announce', request);
    const { connection, store, getState } = await connect(host);
    await vi.waitFor(() => expect(getState().host.interactions.get(request.requestId)?.status).toBe('pending'));

    const phases = recordPhases(store, request.requestId);
    await connection.submitResponse(request.requestId, {
      action: 'accept',
      content: { answers: { 'Which database?': 'SQLite' } },
    });

    await vi.waitFor(() => expect(getState().answers.get(request.requestId)?.phase).toBe('accepted'), {
      timeout: 8_000,
    });
    // It really went through the refusal: sent, queued again, sent again.
    expect(phases.slice(0, 4)).toEqual(['queued', 'sending', 'queued', 'sending']);
    expect(getState().status).toBe('connected');
    await vi.waitFor(() => expect(runtime.resolved).toHaveLength(1));
  });

  it('[R10.4][R12.3] an answer the host could never accept fails at once, even offline, and sends nothing', async () => {
    const host = await startTestHost();
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const request = questionRequest();
    await runtime.socket.emitWithAck('announce', request);
    const { connection, getState } = await connect(host);
    await vi.waitFor(() => expect(getState().host.interactions.get(request.requestId)?.status).toBe('pending'));

    // Over the 2,000-character answer limit (a long "Other" text joined with labels).
    await connection.submitResponse(request.requestId, {
      action: 'accept',
      content: { answers: { 'Which database?': 'x'.repeat(2_500) } },
    });
    expect(getState().answers.get(request.requestId)).toMatchObject({ phase: 'failed' });
    // Notes within their own limits but too big together for one host message.
    const notes = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`q${i}`, { notes: '界'.repeat(1_300) }]));
    await connection.submitResponse(request.requestId, {
      action: 'accept',
      content: { answers: {}, annotations: notes },
    });
    expect(getState().answers.get(request.requestId)).toMatchObject({
      phase: 'failed',
      error: expect.stringContaining('too long'),
    });

    // A valid answer afterwards still goes through.
    await connection.submitResponse(request.requestId, {
      action: 'accept',
      content: { answers: { 'Which database?': 'SQLite' } },
    });
    await vi.waitFor(() => expect(getState().answers.get(request.requestId)?.phase).toBe('accepted'));
    await vi.waitFor(() => expect(runtime.resolved).toHaveLength(1));
    // The first answer the host saw is the valid one: the refused ones never left the phone.
    expect(getState().answers.get(request.requestId)?.resolution?.response).toEqual({
      action: 'accept',
      content: { answers: { 'Which database?': 'SQLite' } },
    });
  });
});

describe('remote connection: state from the host', () => {
  it('[R9.2] a page that reconnects gets what it missed since lastSeq, not a whole snapshot', async () => {
    const host = await startTestHost();
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const first = questionRequest();
    await runtime.socket.emitWithAck('announce', first);
    const { connection, synced, getState } = await connect(host);
    await vi.waitFor(() => expect(getState().host.interactions.get(first.requestId)?.status).toBe('pending'));
    expect(synced).toEqual(['snapshot']);
    const seenSeq = getState().host.lastSeq;

    connection.wentOffline();
    expect(getState().status).toBe('offline');
    const second = questionRequest();
    await runtime.socket.emitWithAck('announce', second);

    connection.wake();
    await vi.waitFor(() => expect(getState().host.interactions.get(second.requestId)?.status).toBe('pending'));
    expect(synced).toEqual(['snapshot', 'resume']);
    expect(getState().host.lastSeq).toBeGreaterThan(seenSeq);
    expect(getState().host.interactions.get(first.requestId)?.status).toBe('pending');
  });

  it('[R16.5] revoked from another device, the app stops at once with device-revoked and does not retry', async () => {
    const host = await startTestHost();
    const { revoked, deviceId, getState } = await connect(host);
    await vi.waitFor(() => expect(getState().host.hasSnapshot).toBe(true));
    expect(getState().host.devices.get(deviceId)?.name).toBe('Phone');
    const laptop = await connectRemote(host.url, (await pairDevice(host, 'Laptop')).credential);
    expect(await laptop.socket.emitWithAck('devices:revoke', { deviceId })).toEqual({ ok: true });
    await vi.waitFor(() => expect(getState()).toMatchObject({ status: 'refused', error: { kind: 'device-revoked' } }));
    expect(revoked).toEqual([deviceId]);
    expect(getState().host.interactions.size).toBe(0);
    expect(host.devices.get(deviceId)).toBeUndefined();
    await vi.waitFor(() => expect(host.io.of('/remote').sockets.size).toBe(1));
  });
});

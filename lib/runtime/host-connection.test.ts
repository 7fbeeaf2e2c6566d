import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type InteractionRequest, type InteractionResolution } from '../contracts';
import { isHostConnectionError } from './errors';
import { DEFAULT_HOST_URL, resolveHostAddress, resolveToken } from './host-address';
import { connectToHost, type HostConnection } from './host-connection';
import { startRuntimeTestServer, type RuntimeTestServer } from './test-support/runtime-test-server';

const TOKEN = 'test-token';
let server: RuntimeTestServer | undefined;
let connection: HostConnection | undefined;

afterEach(async () => {
  const open = connection;
  connection = undefined;
  // close() rejects whatever still waits; tests that leave waiters behind don't care.
  open?.close();
  await server?.close();
  server = undefined;
});

function request(requestId: string, protocolRequestId = `${requestId}-p1`): InteractionRequest {
  return {
    kind: 'question',
    requestId,
    protocolRequestId,
    sessionId: 'session-1',
    toolName: 'AskUserQuestion',
    createdAt: new Date().toISOString(),
    input: {
      questions: [
        {
          question: 'Which DB?',
          header: 'DB',
          multiSelect: false,
          options: [
            { label: 'Postgres', description: 'Relational' },
            { label: 'SQLite', description: 'Embedded' },
          ],
        },
      ],
    },
  };
}

function resolution(requestId: string): InteractionResolution {
  return {
    requestId,
    response: { action: 'accept', content: { answers: { 'Which DB?': 'Postgres' } } },
    resolvedBy: 'user',
    resolvedAt: new Date().toISOString(),
  };
}

async function connected(): Promise<{ server: RuntimeTestServer; connection: HostConnection }> {
  server = await startRuntimeTestServer(TOKEN);
  connection = connectToHost({ url: server.url, token: TOKEN, label: 'test' });
  await connection.ready();
  return { server, connection };
}

describe('host connection', () => {
  it('[R8.2][R10.5] resolves on a resolved notice for any protocol id and acknowledges it', async () => {
    const { server, connection } = await connected();
    const answer = connection.announce(request('r1'), new AbortController().signal);
    await vi.waitFor(() => expect(server.announces).toHaveLength(1));
    server.resolve('r1', resolution('r1'));
    await expect(answer).resolves.toMatchObject({ requestId: 'r1', response: { action: 'accept' } });
    await vi.waitFor(() => expect(server.resolutionAcks).toEqual(['r1']));
  });

  it('[R10.3] resolves at once when the announce ack carries the stored resolution', async () => {
    const { server, connection } = await connected();
    server.ackFor.set('r2', { ok: true, status: 'resolved', resolution: resolution('r2') });
    await expect(connection.announce(request('r2'), new AbortController().signal)).resolves.toMatchObject({
      requestId: 'r2',
    });
    await vi.waitFor(() => expect(server.resolutionAcks).toEqual(['r2']));
  });

  it('rejects when the host says the interaction was withdrawn', async () => {
    const { server, connection } = await connected();
    server.ackFor.set('r3', { ok: true, status: 'withdrawn' });
    await expect(connection.announce(request('r3'), new AbortController().signal)).rejects.toMatchObject({
      code: 'withdrawn',
    });
  });

  it('[R8.3] an aborted announce stops waiting, and a later notice is still acknowledged', async () => {
    const { server, connection } = await connected();
    const controller = new AbortController();
    const answer = connection.announce(request('r4'), controller.signal);
    await vi.waitFor(() => expect(server.announces).toHaveLength(1));
    controller.abort(new Error('tool call aborted'));
    await expect(answer).rejects.toThrow('tool call aborted');
    server.resolve('r4', resolution('r4'));
    await vi.waitFor(() => expect(server.resolutionAcks).toEqual(['r4']));
  });

  it('[R8.1] reconnects after the host drops it and re-announces the pending request', async () => {
    const { server, connection } = await connected();
    const answer = connection.announce(request('r5'), new AbortController().signal);
    await vi.waitFor(() => expect(server.announces).toHaveLength(1));
    server.disconnectAll();
    await vi.waitFor(() => expect(server.announces).toHaveLength(2), { timeout: 5_000 });
    expect(server.announces.map((item) => item.requestId)).toEqual(['r5', 'r5']);
    server.resolve('r5', resolution('r5'));
    await expect(answer).resolves.toMatchObject({ requestId: 'r5' });
  });

  it('[R8.1] announces made while the host is down are sent once it is back', async () => {
    const first = await startRuntimeTestServer(TOKEN);
    const port = Number(new URL(first.url).port);
    connection = connectToHost({ url: first.url, token: TOKEN });
    await connection.ready();
    const live = connection;
    const disconnected = new Promise<void>((resolve) => live.onConnectionChange((up) => up || resolve()));
    await first.close();
    await disconnected;
    const answer = live.announce(request('r6'), new AbortController().signal);
    server = await startRuntimeTestServer(TOKEN, { port });
    const restarted = server;
    await vi.waitFor(() => expect(restarted.announces).toHaveLength(1), { timeout: 8_000 });
    restarted.resolve('r6', resolution('r6'));
    await expect(answer).resolves.toMatchObject({ requestId: 'r6' });
  });

  it('[R8.1][R13.3] once the host accepted a request, re-announces go by id in one batch per window', async () => {
    server = await startRuntimeTestServer(TOKEN);
    connection = connectToHost({ url: server.url, token: TOKEN, reannounceBatchMs: 30 });
    await connection.ready();
    const live = connection;
    const answer = live.announce(request('b1', 'b1-p1'), new AbortController().signal);
    live.announce(request('b2', 'b2-p1'), new AbortController().signal).catch(() => undefined);
    await vi.waitFor(() => expect(live.answered).toBe(2));
    live.announce(request('b1', 'b1-p2'), new AbortController().signal).catch(() => undefined);
    live.announce(request('b1', 'b1-p3'), new AbortController().signal).catch(() => undefined);
    live.announce(request('b2', 'b2-p2'), new AbortController().signal).catch(() => undefined);
    const host = server;
    await vi.waitFor(() => expect(host.batches).toHaveLength(1));
    // Coalesced: the newest protocol id of each request, once.
    expect(host.batches[0]).toEqual([
      { requestId: 'b1', protocolRequestId: 'b1-p3' },
      { requestId: 'b2', protocolRequestId: 'b2-p2' },
    ]);
    expect(host.announces.map((item) => item.protocolRequestId)).toEqual(['b1-p1', 'b2-p1']);
    host.resolve('b1', resolution('b1'));
    await expect(answer).resolves.toMatchObject({ requestId: 'b1' });
  });

  it('[R8.1] a batch answered unknown sends the full announce at once; resolved in a batch resolves and acknowledges', async () => {
    server = await startRuntimeTestServer(TOKEN);
    connection = connectToHost({ url: server.url, token: TOKEN, reannounceBatchMs: 30 });
    await connection.ready();
    const live = connection;
    const host = server;
    const lost = live.announce(request('u1', 'u1-p1'), new AbortController().signal);
    const answered = live.announce(request('u2', 'u2-p1'), new AbortController().signal);
    await vi.waitFor(() => expect(live.answered).toBe(2));
    host.unknownInBatch.add('u1');
    host.ackFor.set('u2', { ok: true, status: 'resolved', resolution: resolution('u2') });
    live.announce(request('u1', 'u1-p2'), new AbortController().signal).catch(() => undefined);
    live.announce(request('u2', 'u2-p2'), new AbortController().signal).catch(() => undefined);
    await expect(answered).resolves.toMatchObject({ requestId: 'u2' });
    await vi.waitFor(() => expect(host.resolutionAcks).toEqual(['u2']));
    await vi.waitFor(() =>
      expect(host.announces.map((item) => item.protocolRequestId)).toEqual(['u1-p1', 'u2-p1', 'u1-p2']),
    );
    expect(host.batches).toHaveLength(1);
    host.unknownInBatch.delete('u1');
    host.resolve('u1', resolution('u1'));
    await expect(lost).resolves.toMatchObject({ requestId: 'u1' });
  });

  it('[R8.1] after a reconnect every pending request is announced in full again, then by id', async () => {
    server = await startRuntimeTestServer(TOKEN);
    connection = connectToHost({ url: server.url, token: TOKEN, reannounceBatchMs: 30 });
    await connection.ready();
    const live = connection;
    const host = server;
    live.announce(request('c1', 'c1-p1'), new AbortController().signal).catch(() => undefined);
    await vi.waitFor(() => expect(live.answered).toBe(1));
    const reconnected = new Promise<void>((resolve) => live.onConnectionChange((up) => up && resolve()));
    host.disconnectAll();
    await reconnected;
    await vi.waitFor(() => expect(host.announces.map((item) => item.protocolRequestId)).toEqual(['c1-p1', 'c1-p1']));
    await vi.waitFor(() => expect(live.answered).toBe(2));
    live.announce(request('c1', 'c1-p2'), new AbortController().signal).catch(() => undefined);
    await vi.waitFor(() => expect(host.batches).toEqual([[{ requestId: 'c1', protocolRequestId: 'c1-p2' }]]));
  });

  it('withdraw tells the host and ends local waiters', async () => {
    const { server, connection } = await connected();
    const answer = expect(connection.announce(request('r7'), new AbortController().signal)).rejects.toMatchObject({
      code: 'withdrawn',
    });
    await connection.withdraw('r7', 'tool call aborted');
    await answer;
    expect(server.withdrawals).toEqual(['r7']);
  });

  it('reports a wrong token clearly', async () => {
    server = await startRuntimeTestServer(TOKEN);
    connection = connectToHost({ url: server.url, token: 'wrong' });
    const error: unknown = await connection.ready().catch((caught: unknown) => caught);
    expect(isHostConnectionError(error) && error.code).toBe('unauthorized');
    expect(String(error)).toContain('ASKAWAY_TOKEN');
    await expect(connection.announce(request('r8'), new AbortController().signal)).rejects.toMatchObject({
      code: 'unauthorized',
    });
  });

  it('reports a protocol mismatch clearly', async () => {
    server = await startRuntimeTestServer(TOKEN, { protocolVersion: 999 });
    connection = connectToHost({ url: server.url, token: TOKEN });
    await expect(connection.ready()).rejects.toMatchObject({ code: 'protocol-mismatch' });
  });

  it('says how to start the host when nothing listens', async () => {
    const gone = await startRuntimeTestServer(TOKEN);
    await gone.close();
    connection = connectToHost({ url: gone.url, token: TOKEN });
    const error: unknown = await connection.ready(500).catch((caught: unknown) => caught);
    expect(isHostConnectionError(error) && error.code).toBe('unreachable');
    expect(String(error)).toContain('askaway start');
  });
});

describe('host discovery', () => {
  it('prefers ASKAWAY_URL, then host.json, then the default address', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'askaway-discovery-'));
    expect(resolveHostAddress({ ASKAWAY_DATA_DIR: dataDir })).toBe(DEFAULT_HOST_URL);
    writeFileSync(
      path.join(dataDir, 'host.json'),
      JSON.stringify({ url: 'http://127.0.0.1:5000/', pid: 1, port: 5000 }),
    );
    expect(resolveHostAddress({ ASKAWAY_DATA_DIR: dataDir })).toBe('http://127.0.0.1:5000');
    expect(resolveHostAddress({ ASKAWAY_DATA_DIR: dataDir, ASKAWAY_URL: 'http://example.test:1' })).toBe(
      'http://example.test:1',
    );
  });

  it('prefers ASKAWAY_TOKEN, then the token file', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'askaway-token-'));
    expect(resolveToken({ ASKAWAY_DATA_DIR: dataDir })).toBeNull();
    writeFileSync(path.join(dataDir, 'token'), 'from-file\n', { mode: 0o600 });
    expect(resolveToken({ ASKAWAY_DATA_DIR: dataDir })).toBe('from-file');
    expect(resolveToken({ ASKAWAY_DATA_DIR: dataDir, ASKAWAY_TOKEN: 'from-env' })).toBe('from-env');
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type InteractionRequest, type InteractionResolution } from '../contracts';
import { isHostConnectionError } from './errors';
import { DEFAULT_HOST_URL, resolveHostAddress, resolveToken } from './host-address';
import { connectToHost, type HostConnection, type HostProtocolError } from './host-connection';
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

  it('[R10.5][R20.19] sends an ack again when the host could not log it (storage-unavailable), until it is taken', async () => {
    const { server, connection } = await connected();
    const answer = connection.announce(request('r9'), new AbortController().signal);
    await vi.waitFor(() => expect(server.announces).toHaveLength(1));
    server.nextReply.set('resolution:ack', {
      ok: false,
      error: { code: 'storage-unavailable', message: 'The event log kept moving' },
    });
    server.resolve('r9', resolution('r9'));
    await expect(answer).resolves.toMatchObject({ requestId: 'r9' });
    await vi.waitFor(() => expect(server.resolutionAcks).toEqual(['r9', 'r9']), { timeout: 5_000 });
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

describe('malformed messages from the host', () => {
  const errors: HostProtocolError[] = [];
  const lines: string[] = [];

  async function reporting(reannounceBatchMs?: number) {
    errors.length = 0;
    lines.length = 0;
    server = await startRuntimeTestServer(TOKEN);
    connection = connectToHost({
      url: server.url,
      token: TOKEN,
      reannounceBatchMs,
      onProtocolError: (error) => errors.push(error),
      log: (line) => lines.push(line),
    });
    await connection.ready();
    return { server, connection };
  }

  it('[R12.3] reports a malformed resolved notice with the broken rule; the call still gets the valid one', async () => {
    const { server, connection } = await reporting();
    const answer = connection.announce(request('m1'), new AbortController().signal);
    await vi.waitFor(() => expect(server.announces).toHaveLength(1));
    const broken = { ...resolution('m1'), resolvedBy: 'somebody' };
    server.send('resolved', { requestId: 'm1', protocolRequestId: 'm1-p1', resolution: broken });
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(errors[0]).toEqual({
      event: 'resolved',
      reply: false,
      rule: expect.stringContaining('resolution.resolvedBy'),
    });
    expect(lines).toEqual([
      expect.stringMatching(/^askaway: dropped a malformed 'resolved' notice from the host: resolution\.resolvedBy: /),
    ]);
    server.resolve('m1', resolution('m1'));
    await expect(answer).resolves.toMatchObject({ requestId: 'm1', resolvedBy: 'user' });
    // Only the valid notice was acknowledged.
    await vi.waitFor(() => expect(server.resolutionAcks).toEqual(['m1']));
  });

  it('[R12.3] reports a malformed auto-resolution notice and does not pass it on', async () => {
    const { server, connection } = await reporting();
    const notices: unknown[] = [];
    connection.onAutoResolution((notice) => notices.push(notice));
    connection.announce(request('m2'), new AbortController().signal).catch(() => undefined);
    await vi.waitFor(() => expect(notices).toHaveLength(1));
    server.send('auto-resolution', { requestId: 'm2', autoResolution: { status: 'scheduled' } });
    const valid = { requestId: 'm2', autoResolution: { status: 'disabled' } };
    server.send('auto-resolution', valid);
    await vi.waitFor(() => expect(notices).toHaveLength(2));
    expect(notices[1]).toEqual(valid);
    expect(errors).toEqual([
      { event: 'auto-resolution', reply: false, rule: expect.stringContaining('autoResolution.timeoutMs') },
    ]);
    expect(lines).toEqual([expect.stringContaining("malformed 'auto-resolution' notice from the host")]);
  });

  it('[R12.3][R8.1] reports a malformed reply to announce; the next re-announce goes in full again', async () => {
    const { server, connection } = await reporting(30);
    server.nextReply.set('announce', { ok: true, status: 'maybe' });
    const answer = connection.announce(request('m3', 'm3-p1'), new AbortController().signal);
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(errors[0]).toEqual({
      event: 'announce',
      reply: true,
      rule: expect.stringContaining(
        'status: none of the variants fits: expected "pending" or "resolved" or "withdrawn"',
      ),
    });
    expect(lines).toEqual([expect.stringContaining("malformed reply to 'announce' from the host")]);
    connection.announce(request('m3', 'm3-p2'), new AbortController().signal).catch(() => undefined);
    await vi.waitFor(() => expect(server.announces.map((item) => item.protocolRequestId)).toEqual(['m3-p1', 'm3-p2']));
    expect(server.batches).toEqual([]);
    server.resolve('m3', resolution('m3'));
    await expect(answer).resolves.toMatchObject({ requestId: 'm3' });
  });

  it('[R12.3][R8.1] reports a malformed or mismatched reply to announce:batch and falls back to full announces', async () => {
    const { server, connection } = await reporting(30);
    connection.announce(request('m4', 'm4-p1'), new AbortController().signal).catch(() => undefined);
    await vi.waitFor(() => expect(connection.answered).toBe(1));
    server.nextReply.set('announce:batch', { ok: true, resolved: 'none' });
    connection.announce(request('m4', 'm4-p2'), new AbortController().signal).catch(() => undefined);
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(errors[0]).toMatchObject({
      event: 'announce:batch',
      reply: true,
      rule: expect.stringContaining('resolved: Invalid input: expected array, received string'),
    });
    connection.announce(request('m4', 'm4-p3'), new AbortController().signal).catch(() => undefined);
    await vi.waitFor(() => expect(server.announces.map((item) => item.protocolRequestId)).toEqual(['m4-p1', 'm4-p3']));
    await vi.waitFor(() => expect(connection.answered).toBe(2));

    // Well-formed, but the entry for m4 carries another request's resolution.
    server.ackFor.set('m4', { ok: true, status: 'resolved', resolution: resolution('other') });
    connection.announce(request('m4', 'm4-p4'), new AbortController().signal).catch(() => undefined);
    await vi.waitFor(() => expect(errors).toHaveLength(2));
    expect(errors[1]).toEqual({
      event: 'announce:batch',
      reply: true,
      rule: 'resolved: the entry for m4 carries the resolution of other',
    });
    expect(server.resolutionAcks).toEqual([]);
    expect(lines).toHaveLength(2);
  });

  it('[R12.3] reports a malformed reply to withdraw and to resolution:ack', async () => {
    const { server, connection } = await reporting();
    const answer = connection.announce(request('m5'), new AbortController().signal);
    await vi.waitFor(() => expect(server.announces).toHaveLength(1));
    server.nextReply.set('resolution:ack', { ok: 'yes' });
    server.resolve('m5', resolution('m5'));
    await expect(answer).resolves.toMatchObject({ requestId: 'm5' });
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(errors[0]).toMatchObject({ event: 'resolution:ack', reply: true });

    server.nextReply.set('withdraw', 'fine');
    await connection.withdraw('m6');
    expect(server.withdrawals).toEqual(['m6']);
    expect(errors).toHaveLength(2);
    expect(errors[1]).toEqual({
      event: 'withdraw',
      reply: true,
      rule: '(root): Invalid input: expected object, received string',
    });
    expect(lines).toEqual([
      expect.stringContaining("malformed reply to 'resolution:ack'"),
      expect.stringContaining("malformed reply to 'withdraw'"),
    ]);
  });

  it('[R12.3] without a log option the line goes to stderr, never stdout (an MCP stream)', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const stdout = vi.spyOn(process.stdout, 'write');
    try {
      server = await startRuntimeTestServer(TOKEN);
      connection = connectToHost({ url: server.url, token: TOKEN });
      await connection.ready();
      server.send('resolved', { requestId: 'x' });
      await vi.waitFor(() =>
        expect(stderr).toHaveBeenCalledWith(expect.stringContaining("malformed 'resolved' notice from the host")),
      );
      expect(stdout.mock.calls.map(([chunk]) => String(chunk)).filter((chunk) => chunk.includes('malformed'))).toEqual(
        [],
      );
    } finally {
      stderr.mockRestore();
      stdout.mockRestore();
    }
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

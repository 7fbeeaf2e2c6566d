import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_ANNOUNCE_BATCH } from '../contracts';
import { closeAllClients, connectRemote, connectRuntime } from './test-support/clients';
import { pairDevice } from './test-support/devices';
import { questionRequest } from './test-support/fixtures';
import { closeAllHosts, startTestHost, tempDir, TEST_TOKEN } from './test-support/test-host';

afterEach(async () => {
  closeAllClients();
  await closeAllHosts();
});

const accept = (requestId: string, clientResponseId: string) => ({
  requestId,
  clientResponseId,
  response: { action: 'accept' as const, content: { answers: { 'Which database?': 'SQLite' } } },
});

describe('announce:batch (re-announce by id)', () => {
  it('[R8.1][R8.2] answers per entry: pending (route updated), resolved with the resolution, withdrawn, unknown', async () => {
    const host = await startTestHost();
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const remote = await connectRemote(host.url, (await pairDevice(host)).credential);
    const [waiting, answered, dropped] = [questionRequest(), questionRequest(), questionRequest()];
    for (const request of [waiting, answered, dropped]) await runtime.socket.emitWithAck('announce', request);
    const won = await remote.socket.emitWithAck('respond', accept(answered.requestId, 'c-1'));
    if (!won.ok) throw new Error('the answer should win');
    await runtime.socket.emitWithAck('withdraw', { requestId: dropped.requestId });
    const seq = host.registry.projection.seq;

    const ack = await runtime.socket.emitWithAck('announce:batch', {
      entries: [
        { requestId: waiting.requestId, protocolRequestId: 'proto-batched' },
        { requestId: answered.requestId, protocolRequestId: 'proto-x' },
        { requestId: dropped.requestId, protocolRequestId: 'proto-y' },
        { requestId: 'req-never-seen', protocolRequestId: 'proto-z' },
      ],
    });
    expect(ack).toEqual({
      ok: true,
      resolved: [{ requestId: answered.requestId, resolution: won.resolution }],
      withdrawn: [dropped.requestId],
      unknown: ['req-never-seen'],
    });
    // Re-announcing writes nothing; the answer goes to the protocol id of the batch.
    expect(host.registry.projection.seq).toBe(seq);
    await remote.socket.emitWithAck('respond', accept(waiting.requestId, 'c-2'));
    await vi.waitFor(() => expect(runtime.resolved.map((notice) => notice.requestId)).toContain(waiting.requestId));
    expect(runtime.resolved.find((notice) => notice.requestId === waiting.requestId)).toMatchObject({
      protocolRequestId: 'proto-batched',
    });
  });

  it('[R8.1] routes the answer to the socket of the latest batch, and batches keep the stale sweep away', async () => {
    const host = await startTestHost();
    const first = await connectRuntime(host.url, TEST_TOKEN, 'runtime-a');
    const second = await connectRuntime(host.url, TEST_TOKEN, 'runtime-b');
    const remote = await connectRemote(host.url, (await pairDevice(host)).credential);
    const request = questionRequest();
    await first.socket.emitWithAck('announce', request);
    await second.socket.emitWithAck('announce:batch', {
      entries: [{ requestId: request.requestId, protocolRequestId: 'proto-b' }],
    });
    expect(await host.registry.withdrawSilent(60_000, 'silent')).toEqual([]);
    await remote.socket.emitWithAck('respond', accept(request.requestId, 'c-1'));
    await vi.waitFor(() => expect(second.resolved).toHaveLength(1));
    expect(second.resolved[0]).toMatchObject({ requestId: request.requestId, protocolRequestId: 'proto-b' });
    expect(first.resolved).toEqual([]);
  });

  it('[R10.4] an invalid batch is refused as a whole and changes nothing', async () => {
    const host = await startTestHost();
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const remote = await connectRemote(host.url, (await pairDevice(host)).credential);
    const request = questionRequest();
    await runtime.socket.emitWithAck('announce', request);
    const valid = { requestId: request.requestId, protocolRequestId: 'proto-new' };
    // Short ids keep this one under the message size limit, so the batch schema is what refuses it.
    const tooMany = Array.from({ length: MAX_ANNOUNCE_BATCH + 1 }, () => ({ requestId: 'r', protocolRequestId: 'p' }));
    for (const payload of [
      { entries: [] },
      { entries: tooMany },
      { entries: [valid, { requestId: request.requestId }] },
      { entries: [{ ...valid, extra: 1 }] },
      { entries: [valid], more: true },
      [valid],
      'batch',
    ]) {
      expect(await runtime.socket.emitWithAck('announce:batch', payload)).toMatchObject({
        ok: false,
        error: { code: 'invalid-message' },
      });
    }
    // The route still holds the protocol id of the full announce.
    await remote.socket.emitWithAck('respond', accept(request.requestId, 'c-1'));
    await vi.waitFor(() => expect(runtime.resolved).toHaveLength(1));
    expect(runtime.resolved[0]).toMatchObject({ protocolRequestId: request.protocolRequestId });
  });

  it('[R12.3] a batch counts one rate-limit token per entry', async () => {
    const host = await startTestHost({ rateLimits: { runtime: { capacity: 10, refillPerSecond: 0.001 } } });
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const request = questionRequest();
    await runtime.socket.emitWithAck('announce', request);
    const entries = Array.from({ length: 8 }, (_, index) => ({
      requestId: request.requestId,
      protocolRequestId: `p-${index}`,
    }));
    expect(await runtime.socket.emitWithAck('announce:batch', { entries })).toMatchObject({ ok: true });
    expect(await runtime.socket.emitWithAck('announce:batch', { entries: entries.slice(0, 2) })).toMatchObject({
      ok: false,
      error: { code: 'rate-limited' },
    });
  });

  it('[R8.1] after a host restart, restored pending items answer pending to a batch and regain their route', async () => {
    const dataDir = tempDir();
    const before = await startTestHost({ dataDir });
    const oldRuntime = await connectRuntime(before.url, TEST_TOKEN);
    const request = questionRequest();
    await oldRuntime.socket.emitWithAck('announce', request);
    await before.close();

    const after = await startTestHost({ dataDir });
    const runtime = await connectRuntime(after.url, TEST_TOKEN);
    const remote = await connectRemote(after.url, (await pairDevice(after)).credential);
    const ack = await runtime.socket.emitWithAck('announce:batch', {
      entries: [{ requestId: request.requestId, protocolRequestId: 'proto-after-restart' }],
    });
    expect(ack).toEqual({ ok: true, resolved: [], withdrawn: [], unknown: [] });
    await remote.socket.emitWithAck('respond', accept(request.requestId, 'c-1'));
    await vi.waitFor(() => expect(runtime.resolved).toHaveLength(1));
    expect(runtime.resolved[0]).toMatchObject({
      requestId: request.requestId,
      protocolRequestId: 'proto-after-restart',
    });
  });
});

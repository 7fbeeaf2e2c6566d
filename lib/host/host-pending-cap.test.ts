import { afterEach, describe, expect, it } from 'vitest';
import { PENDING_PAGE_MAX, PENDING_PAGE_MAX_BYTES } from '../contracts';
import { askUserQuestionTool, executeToolCall } from '../core';
import { createRuntimeClient, type RuntimeClient } from '../runtime/runtime-broker';
import { TWO_QUESTIONS } from '../runtime/test-support/mcp-scenarios';
import { closeAllClients, connectRemote, connectRuntime } from './test-support/clients';
import { pairDevice } from './test-support/devices';
import { permissionRequest, questionRequest } from './test-support/fixtures';
import { joinMachine } from './test-support/machines';
import { closeAllHosts, startTestHost, TEST_TOKEN } from './test-support/test-host';

const RELAXED = { capacity: 100_000, refillPerSecond: 100_000 };
let runtime: RuntimeClient | undefined;

afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
  closeAllClients();
  await closeAllHosts();
});

describe('[R12.7] waiting interactions are bounded', () => {
  it('[R12.7] a machine past --max-pending is refused with a reason; other machines and re-announces are not', async () => {
    const host = await startTestHost({
      maxPendingPerMachine: 3,
      rateLimits: { newInteractions: RELAXED },
    });
    const flood = await joinMachine(host, 'flood');
    const flooder = await connectRuntime(host.url, flood.credential);
    // Two of its agents: one connection alone may hold only its share of the machine's cap (R12.17).
    const second = await connectRuntime(host.url, flood.credential, 'second');
    const first = questionRequest();
    const acks = [];
    for (const [socket, request] of [
      [flooder.socket, first],
      [flooder.socket, questionRequest()],
      [second.socket, questionRequest()],
      [second.socket, questionRequest()],
    ] as const)
      acks.push(await socket.emitWithAck('announce', request));
    expect(acks.map((ack) => (ack.ok ? ack.status : ack.error.code))).toEqual([
      'pending',
      'pending',
      'pending',
      'too-many-pending',
    ]);
    expect(acks[3]).toMatchObject({
      error: { message: expect.stringMatching(/Too many waiting questions from this machine/) },
    });
    // A question already waiting is re-announced as before (R8.1).
    expect(await flooder.socket.emitWithAck('announce', first)).toMatchObject({ ok: true, status: 'pending' });
    // The hub's own agents have their own allowance.
    const local = await connectRuntime(host.url, TEST_TOKEN);
    expect(await local.socket.emitWithAck('announce', questionRequest())).toMatchObject({ ok: true });
    // One answered: room for one more.
    const phone = await connectRemote(host.url, (await pairDevice(host)).credential);
    await phone.socket.emitWithAck('respond', {
      requestId: `${flood.machine.id}:${first.requestId}`,
      clientResponseId: 'c1',
      response: { action: 'accept', content: { answers: {} } },
    });
    expect(await second.socket.emitWithAck('announce', questionRequest())).toMatchObject({ ok: true });
    expect(host.registry.projection.pendingCount(flood.machine.id)).toBe(3);
  });

  it('[R12.7] the agent reads why: the runtime ends the tool call with the host reason', async () => {
    const host = await startTestHost({ maxPendingPerMachine: 1 });
    const local = await connectRuntime(host.url, TEST_TOKEN);
    await local.socket.emitWithAck('announce', questionRequest());
    runtime = createRuntimeClient({ url: host.url, token: host.token });
    const result = await executeToolCall({
      tool: askUserQuestionTool,
      input: TWO_QUESTIONS,
      sessionId: 'root',
      broker: runtime.broker,
    });
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringMatching(/Too many waiting questions from this machine/),
    });
  });

  it("[R12.17] one connection holds at most its share of the machine's cap; the machine's other agents keep room", async () => {
    const host = await startTestHost({ maxPendingPerMachine: 4, rateLimits: { newInteractions: RELAXED } });
    const bridge = await connectRuntime(host.url, TEST_TOKEN, 'flooding bridge');
    const codes = [];
    for (let index = 0; index < 4; index += 1) {
      const ack = await bridge.socket.emitWithAck('announce', questionRequest());
      codes.push(ack.ok ? ack.status : ack.error.code);
    }
    expect(codes).toEqual(['pending', 'pending', 'too-many-pending', 'too-many-pending']);
    expect(await bridge.socket.emitWithAck('announce', questionRequest())).toMatchObject({
      error: { message: expect.stringMatching(/from this agent's connection: 2 are waiting/) },
    });
    // The MCP server and a hook of the same machine, each on its own connection.
    const mcp = await connectRuntime(host.url, TEST_TOKEN, 'mcp');
    expect(await mcp.socket.emitWithAck('announce', questionRequest())).toMatchObject({ ok: true, status: 'pending' });
    const hook = await connectRuntime(host.url, TEST_TOKEN, 'hook');
    expect(await hook.socket.emitWithAck('announce', permissionRequest())).toMatchObject({
      ok: true,
      status: 'pending',
    });
    expect(host.registry.projection.pendingCount(host.registry.localMachine.id)).toBe(4);
  });

  it('[R12.7] new interactions are rate-limited per connection; re-announces are not', async () => {
    const host = await startTestHost({ rateLimits: { newInteractions: { capacity: 2, refillPerSecond: 0.001 } } });
    const socket = (await connectRuntime(host.url, TEST_TOKEN)).socket;
    const known = permissionRequest();
    const codes = [];
    for (const request of [known, permissionRequest(), permissionRequest()]) {
      const ack = await socket.emitWithAck('announce', request);
      codes.push(ack.ok ? ack.status : ack.error.code);
    }
    expect(codes).toEqual(['pending', 'pending', 'rate-limited']);
    expect(await socket.emitWithAck('announce', known)).toMatchObject({ ok: true, status: 'pending' });
    // Another connection has its own budget.
    const other = (await connectRuntime(host.url, TEST_TOKEN, 'other')).socket;
    expect(await other.emitWithAck('announce', permissionRequest())).toMatchObject({ ok: true });
  });

  it('[R12.7] a snapshot carries one bounded page and the total; pending:more loads the rest, oldest first', async () => {
    const host = await startTestHost({
      maxPendingPerMachine: 5_000,
      rateLimits: { runtime: RELAXED, newInteractions: RELAXED },
    });
    const socket = (await connectRuntime(host.url, TEST_TOKEN)).socket;
    const total = PENDING_PAGE_MAX + 150;
    const ids: string[] = [];
    for (let index = 0; index < total; index += 1) {
      const request = permissionRequest({ requestId: `p-${index}` });
      ids.push(request.requestId);
      await socket.emitWithAck('announce', request);
    }
    const phone = await connectRemote(host.url, (await pairDevice(host)).credential);
    const snapshot = phone.snapshots[0];
    expect(snapshot?.pending).toHaveLength(PENDING_PAGE_MAX);
    expect(snapshot?.pendingTotal).toBe(total);
    expect(snapshot?.pending.map((view) => view.requestId)).toEqual(ids.slice(0, PENDING_PAGE_MAX));
    // One answered meanwhile: the next page still starts where the first ended.
    await phone.socket.emitWithAck('respond', {
      requestId: ids[PENDING_PAGE_MAX + 1] ?? '',
      clientResponseId: 'c',
      response: { action: 'accept' },
    });
    const more = await phone.socket.emitWithAck('pending:more', { after: snapshot?.pendingCursor ?? 0 });
    expect(more).toMatchObject({ ok: true, pendingTotal: total - 1 });
    if (!more.ok) throw new Error('pending:more failed');
    expect(more.pending.map((view) => view.requestId)).toEqual([
      ids[PENDING_PAGE_MAX],
      ...ids.slice(PENDING_PAGE_MAX + 2),
    ]);
    expect(more.pendingCursor).toBeUndefined();
    expect(await phone.socket.emitWithAck('pending:more', { after: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-message' },
    });
  });

  it('[R12.7] the page is bounded by size as well: large interactions fill it sooner', async () => {
    const host = await startTestHost({ rateLimits: { runtime: RELAXED, newInteractions: RELAXED } });
    const socket = (await connectRuntime(host.url, TEST_TOKEN)).socket;
    const big = 'x'.repeat(19_000);
    for (let index = 0; index < 150; index += 1)
      await socket.emitWithAck('announce', permissionRequest({ requestId: `big-${index}`, input: { blob: big } }));
    const snapshot = host.registry.snapshot();
    expect(snapshot.pendingTotal).toBe(150);
    expect(snapshot.pending.length).toBeLessThan(150);
    expect(JSON.stringify(snapshot.pending).length).toBeLessThanOrEqual(PENDING_PAGE_MAX_BYTES);
    expect(snapshot.pendingCursor).toBeDefined();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { type InteractionOrigin, type InteractionRequest } from '../contracts';
import { closeAllClients, connectRemote, connectRuntime } from './test-support/clients';
import { pairDevice } from './test-support/devices';
import { permissionRequest, questionRequest } from './test-support/fixtures';
import { closeAllHosts, startTestHost, TEST_TOKEN } from './test-support/test-host';
import { expectItem } from '../core/test-support/expect-item';

afterEach(async () => {
  closeAllClients();
  await closeAllHosts();
});

async function setup() {
  const host = await startTestHost();
  const runtime = await connectRuntime(host.url, TEST_TOKEN);
  const remote = await connectRemote(host.url, (await pairDevice(host)).credential);
  return { host, runtime, remote };
}

const answer = (requestId: string, clientResponseId: string, answers: Record<string, string>) => ({
  requestId,
  clientResponseId,
  response: { action: 'accept' as const, content: { answers } },
});

describe('host registry over real sockets', () => {
  it('[R8.1] a re-announce with a fresh protocolRequestId never creates a second pending item', async () => {
    const { host, runtime, remote } = await setup();
    const request = questionRequest();
    expect(await runtime.socket.emitWithAck('announce', request)).toMatchObject({ ok: true, status: 'pending' });
    const seqAfterFirst = host.registry.projection.seq;
    for (let index = 0; index < 3; index += 1) {
      const ack = await runtime.socket.emitWithAck('announce', {
        ...request,
        protocolRequestId: `proto-again-${index}`,
      });
      expect(ack).toMatchObject({ ok: true, status: 'pending' });
    }
    expect(host.registry.projection.seq).toBe(seqAfterFirst);
    expect(host.registry.snapshot().pending).toHaveLength(1);
    await vi.waitFor(() =>
      expect(remote.events.filter((event) => event.type === 'interaction.requested')).toHaveLength(1),
    );

    await remote.socket.emitWithAck('respond', answer(request.requestId, 'c-1', { 'Which database?': 'SQLite' }));
    await vi.waitFor(() => expect(runtime.resolved).toHaveLength(1));
    // R8.2: routed by business id to the protocol id current at resolution time.
    expect(runtime.resolved[0]).toMatchObject({ requestId: request.requestId, protocolRequestId: 'proto-again-2' });
  });

  it('[R10.3] a re-announce after the answer gets the stored resolution back at once', async () => {
    const { runtime, remote } = await setup();
    const request = questionRequest();
    await runtime.socket.emitWithAck('announce', request);
    const won = await remote.socket.emitWithAck(
      'respond',
      answer(request.requestId, 'c-1', { 'Which extras?': 'Metrics, Tracing' }),
    );
    expect(won).toMatchObject({ ok: true, status: 'accepted' });
    const again = await runtime.socket.emitWithAck('announce', { ...request, protocolRequestId: 'proto-new' });
    expect(again).toEqual({ ok: true, status: 'resolved', resolution: won.ok ? won.resolution : undefined });
  });

  it('[R10.5] logs the runtime acknowledgement once, so remotes can show "received by the agent"', async () => {
    const { host, runtime, remote } = await setup();
    const request = questionRequest();
    await runtime.socket.emitWithAck('announce', request);
    await remote.socket.emitWithAck('respond', answer(request.requestId, 'c-1', {}));
    await vi.waitFor(() => expect(runtime.resolved).toHaveLength(1));
    expect(await runtime.socket.emitWithAck('resolution:ack', { requestId: request.requestId })).toEqual({ ok: true });
    expect(await runtime.socket.emitWithAck('resolution:ack', { requestId: request.requestId })).toEqual({ ok: true });
    await vi.waitFor(() =>
      expect(remote.events.filter((event) => event.type === 'interaction.delivered')).toHaveLength(1),
    );
    expect(host.registry.projection.get(request.requestId)?.deliveredAt).toBeDefined();
    const deliveredCount = (await host.registry.readSince(0, 100)).filter(
      (event) => event.type === 'interaction.delivered',
    ).length;
    expect(deliveredCount).toBe(1);
  });

  it('[R10.3] repeating the winning clientResponseId returns the same ack', async () => {
    const { runtime, remote } = await setup();
    const request = questionRequest();
    await runtime.socket.emitWithAck('announce', request);
    const command = answer(request.requestId, 'c-same', { 'Which database?': 'Postgres (Recommended)' });
    const first = await remote.socket.emitWithAck('respond', command);
    const second = await remote.socket.emitWithAck('respond', command);
    expect(second).toEqual(first);
    expect(first).toMatchObject({ ok: true, status: 'accepted' });
  });

  it('[R5.4][R10.4] refuses unknown question keys, blank answers and stray annotations, changing nothing', async () => {
    const { host, runtime, remote } = await setup();
    const request = questionRequest();
    await runtime.socket.emitWithAck('announce', request);
    const seq = host.registry.projection.seq;
    const bad = [
      answer(request.requestId, 'c-1', { 'Which color?': 'Blue' }),
      answer(request.requestId, 'c-2', { 'Which database?': '   ' }),
      {
        ...answer(request.requestId, 'c-3', {}),
        response: { action: 'accept', content: { answers: {}, annotations: { Nope: { notes: 'x' } } } },
      },
      { requestId: request.requestId, clientResponseId: 'c-4', response: { action: 'accept' } },
    ];
    for (const command of bad) {
      const ack = await remote.socket.emitWithAck('respond', command);
      expect(ack.ok).toBe(false);
      if (!ack.ok) expect(['invalid-response', 'invalid-message']).toContain(ack.error.code);
    }
    expect(host.registry.projection.seq).toBe(seq);
    // Free text ("Other") is a legal answer, and so are annotations on real questions.
    const ok = await remote.socket.emitWithAck('respond', {
      ...answer(request.requestId, 'c-5', {}),
      response: {
        action: 'accept',
        content: {
          answers: { 'Which database?': 'CockroachDB' },
          annotations: { 'Which database?': { notes: 'we run it already' } },
        },
      },
    });
    expect(ok).toMatchObject({ ok: true, status: 'accepted' });
  });

  it('[R3.3] refuses AskUserQuestion or ExitPlanMode announced as an ordinary permission prompt', async () => {
    const { host, runtime } = await setup();
    for (const toolName of ['AskUserQuestion', 'ExitPlanMode']) {
      const ack = await runtime.socket.emitWithAck('announce', permissionRequest({ toolName }));
      expect(ack).toMatchObject({ ok: false, error: { code: 'invalid-message' } });
      if (!ack.ok) expect(ack.error.message).toContain(toolName);
    }
    expect(host.registry.snapshot().pending).toEqual([]);
  });

  it('[R3.2] a permission prompt can be allowed or denied with a reason; a plan can be declined with feedback', async () => {
    const { runtime, remote } = await setup();
    const bash = permissionRequest();
    const plan = {
      ...permissionRequest({ toolName: 'ExitPlanMode' }),
      kind: 'plan-approval',
      input: { plan: '# Plan\n1. Do it' },
    } as InteractionRequest;
    await runtime.socket.emitWithAck('announce', bash);
    await runtime.socket.emitWithAck('announce', plan);
    const withAnswers = await remote.socket.emitWithAck('respond', answer(bash.requestId, 'c-0', {}));
    expect(withAnswers).toMatchObject({ ok: false, error: { code: 'invalid-response' } });
    const allowed = await remote.socket.emitWithAck('respond', {
      requestId: bash.requestId,
      clientResponseId: 'c-1',
      response: { action: 'accept' },
    });
    expect(allowed).toMatchObject({ ok: true, status: 'accepted' });
    const declined = await remote.socket.emitWithAck('respond', {
      requestId: plan.requestId,
      clientResponseId: 'c-2',
      response: { action: 'decline', message: 'Split step 1 first' },
    });
    expect(declined).toMatchObject({
      ok: true,
      resolution: { response: { action: 'decline', message: 'Split step 1 first' } },
    });
    await vi.waitFor(() =>
      expect(runtime.resolved.map((notice) => notice.requestId).sort()).toEqual(
        [bash.requestId, plan.requestId].sort(),
      ),
    );
  });

  it('[R10.2] a withdrawn interaction leaves the inbox, refuses answers, and re-announces report it', async () => {
    const { host, runtime, remote } = await setup();
    const request = questionRequest();
    await runtime.socket.emitWithAck('announce', request);
    expect(
      await runtime.socket.emitWithAck('withdraw', { requestId: request.requestId, reason: 'tool call aborted' }),
    ).toEqual({ ok: true });
    expect(host.registry.snapshot().pending).toEqual([]);
    expect(host.registry.snapshot().history[0]).toMatchObject({
      status: 'withdrawn',
      withdrawnReason: 'tool call aborted',
    });
    expect(await remote.socket.emitWithAck('respond', answer(request.requestId, 'c-1', {}))).toMatchObject({
      ok: false,
      error: { code: 'withdrawn' },
    });
    expect(await runtime.socket.emitWithAck('announce', request)).toEqual({ ok: true, status: 'withdrawn' });
  });

  it('[R7.1][R7.2] a question from two subagent levels deep reaches remotes with the root sessionId and the innermost origin', async () => {
    const { host, runtime, remote } = await setup();
    const origin: InteractionOrigin = {
      kind: 'subagent',
      label: 'tests (under reviewer)',
      path: ['reviewer', 'tests'],
      depth: 2,
      agentId: 'tests-1',
      agentType: 'test-writer',
      sessionId: 'session-tests',
      parentSessionId: 'session-reviewer',
    };
    const request = questionRequest({ sessionId: 'session-root', origin });
    await runtime.socket.emitWithAck('announce', request);
    await vi.waitFor(() => expect(remote.events.some((event) => event.type === 'interaction.requested')).toBe(true));
    const requested = remote.events.find((event) => event.type === 'interaction.requested');
    expect(requested?.type === 'interaction.requested' && requested.interaction).toMatchObject({
      sessionId: 'session-root',
      origin,
    });
    const late = await connectRemote(host.url, (await pairDevice(host, 'laptop')).credential);
    expect(expectItem(late.snapshots, 0).pending[0]).toMatchObject({ sessionId: 'session-root', origin });
  });
});

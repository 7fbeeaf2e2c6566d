import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  PROTOCOL_VERSION,
  REMOTE_NAMESPACE,
  REMOTE_PROTOCOL_VERSION,
  RUNTIME_NAMESPACE,
  type Snapshot,
} from '../contracts';
import { closeAllClients, connectRemote, connectRuntime, tryConnect } from './test-support/clients';
import { pairDevice } from './test-support/devices';
import { questionRequest } from './test-support/fixtures';
import { closeAllHosts, startTestHost, TEST_TOKEN } from './test-support/test-host';

afterEach(async () => {
  closeAllClients();
  await closeAllHosts();
});

const RELAXED = { capacity: 10_000, refillPerSecond: 10_000 };
// Times that move with the clock: the server's, and "last seen" of a machine whose agents are connected now.
const stable = (snapshot: Snapshot) => ({
  ...snapshot,
  serverTime: 'ignored',
  machines: snapshot.machines.map(({ lastSeenAt: _now, ...machine }) => machine),
});

function hostileAnnounces(valid: ReturnType<typeof questionRequest>): unknown[] {
  const question = valid.kind === 'question' ? valid.input.questions[0] : undefined;
  const withQuestions = (questions: unknown) => ({ ...valid, requestId: 'hostile', input: { questions } });
  return [
    null,
    42,
    'announce',
    [],
    true,
    {},
    { requestId: 5 },
    { ...valid, kind: 'nonsense' },
    { ...valid, requestId: '' },
    { ...valid, requestId: 'x'.repeat(5_000) },
    { ...valid, createdAt: 'yesterday' },
    { ...valid, extra: 'field' },
    { ...valid, protocolRequestId: undefined },
    { ...valid, kind: 'plan-approval' },
    { ...valid, kind: 'permission', input: { blob: 'x'.repeat(30_000) } },
    withQuestions([]),
    withQuestions([question, question]),
    withQuestions(Array.from({ length: 5 }, (_, index) => ({ ...question, question: `Q${index}?` }))),
    withQuestions([{ ...question, header: 'far too long a header' }]),
    withQuestions([
      {
        ...question,
        options: [
          { label: 'Other', description: 'x' },
          { label: 'B', description: 'y' },
        ],
      },
    ]),
    withQuestions([
      {
        ...question,
        options: [
          { label: 'A', description: 'x', preview: '<script>alert(1)</script>' },
          { label: 'B', description: 'y' },
        ],
      },
    ]),
    withQuestions([
      {
        ...question,
        options: [
          { label: 'A', description: '' },
          { label: 'B', description: 'y' },
        ],
      },
    ]),
    withQuestions([{ ...question, question: 'x'.repeat(100_000) }]),
    { ...valid, toolName: 'AskUserQuestion', kind: 'permission', input: { questions: [] } },
  ];
}

function hostileResponds(requestId: string): unknown[] {
  const accept = (content: unknown) => ({
    requestId,
    clientResponseId: `c-${Math.random()}`,
    response: { action: 'accept', content },
  });
  return [
    null,
    7,
    'respond',
    [],
    {},
    { requestId },
    { requestId, clientResponseId: 'c', response: { action: 'maybe' } },
    { requestId, clientResponseId: 'c', response: { action: 'decline', message: 5 } },
    { requestId, clientResponseId: '', response: { action: 'cancel' } },
    { requestId: 'no-such-request', clientResponseId: 'c', response: { action: 'cancel' } },
    accept(undefined),
    accept({ answers: { 'Which color?': 'Blue' } }),
    accept({ answers: { 'Which database?': '' } }),
    accept({ answers: { 'Which database?': '  \n\t ' } }),
    accept({ answers: { 'Which database?': 3 } }),
    accept({ answers: { 'Which database?': 'x'.repeat(50_000) } }),
    accept({ answers: {}, annotations: { 'Unknown?': { notes: 'n' } } }),
    accept({ answers: {}, annotations: { 'Which database?': { notes: 'n', script: 'x' } } }),
    accept({ answers: {}, answer_0: 'legacy' }),
    accept('answers'),
  ];
}

const hostilePreferences: unknown[] = [
  null,
  'on',
  [],
  { askUserQuestionAutoResolutionEnabled: 'yes' },
  { askUserQuestionAutoResolutionTimeoutMs: 5 },
  { askUserQuestionAutoResolutionTimeoutMs: 1.5e12 },
  { askUserQuestionAutoResolutionTimeoutMs: 1_500.5 },
  { somethingElse: true },
];

describe('[R10.4][R12.3] hostile input', () => {
  it('[R10.4] 200+ malformed or hostile messages change nothing and the host keeps serving', async () => {
    const host = await startTestHost({ rateLimits: { runtime: RELAXED, remote: RELAXED } });
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const device = await pairDevice(host);
    const remote = await connectRemote(host.url, device.credential);
    const valid = questionRequest();
    await runtime.socket.emitWithAck('announce', valid);
    const seqBefore = host.registry.projection.seq;
    const snapshotBefore = stable(host.registry.snapshot());

    const acks: unknown[] = [];
    let sent = 0;
    for (let round = 0; round < 3; round += 1) {
      for (const payload of hostileAnnounces(valid)) acks.push(await runtime.socket.emitWithAck('announce', payload));
      for (const payload of hostileResponds(valid.requestId))
        acks.push(await remote.socket.emitWithAck('respond', payload));
      for (const payload of hostilePreferences)
        acks.push(await remote.socket.emitWithAck('preferences:update', payload));
      for (const payload of [
        null,
        1,
        { requestId: '' },
        { requestId: 'nope' },
        { requestId: valid.requestId, extra: 1 },
      ]) {
        acks.push(await runtime.socket.emitWithAck('withdraw', payload));
        acks.push(await runtime.socket.emitWithAck('resolution:ack', payload));
      }
      // Not resolved yet: an acknowledgement is refused.
      acks.push(await runtime.socket.emitWithAck('resolution:ack', { requestId: valid.requestId }));
      // Without an ack callback, or with junk where the ack should be: ignored, no crash.
      const rawRemote = remote.socket as unknown as { emit: (...args: unknown[]) => void };
      rawRemote.emit('respond', { requestId: valid.requestId });
      rawRemote.emit('snapshot:get', 'junk');
      rawRemote.emit('no-such-event', { a: 1 }, () => undefined);
      sent += 4;
    }
    sent += acks.length;

    expect(sent).toBeGreaterThanOrEqual(200);
    for (const ack of acks) {
      expect(ack).toMatchObject({
        ok: false,
        error: { code: expect.stringMatching(/^(invalid-message|invalid-response|unknown-interaction)$/) },
      });
    }
    const refusals = [
      await tryConnect(host.url, REMOTE_NAMESPACE, {}),
      await tryConnect(host.url, REMOTE_NAMESPACE, {
        credential: 'wrong',
        protocolVersion: REMOTE_PROTOCOL_VERSION,
      }),
      await tryConnect(host.url, RUNTIME_NAMESPACE, {
        token: `${TEST_TOKEN}x`,
        protocolVersion: PROTOCOL_VERSION,
        runtimeId: 'r',
      }),
      await tryConnect(host.url, RUNTIME_NAMESPACE, {
        token: TEST_TOKEN,
        protocolVersion: PROTOCOL_VERSION + 1,
        runtimeId: 'r',
      }),
      await tryConnect(host.url, REMOTE_NAMESPACE, {
        credential: device.credential,
        protocolVersion: REMOTE_PROTOCOL_VERSION,
        device: 'me',
      }),
    ];
    expect(refusals.map((data) => (data as { code?: string }).code)).toEqual([
      'unauthorized',
      'unauthorized',
      'unauthorized',
      'protocol-mismatch',
      'invalid-message',
    ]);
    expect((refusals[3] as { message: string }).message).toMatch(
      `protocol ${PROTOCOL_VERSION}, the client sent ${PROTOCOL_VERSION + 1}`,
    );

    expect(host.registry.projection.seq).toBe(seqBefore);
    expect(stable(host.registry.snapshot())).toEqual(snapshotBefore);
    // Still serving: the real answer goes through.
    const ok = await remote.socket.emitWithAck('respond', {
      requestId: valid.requestId,
      clientResponseId: 'real',
      response: { action: 'accept', content: { answers: { 'Which database?': 'SQLite' } } },
    });
    expect(ok).toMatchObject({ ok: true, status: 'accepted' });
    await vi.waitFor(() => expect(runtime.resolved).toHaveLength(1));
  });

  it('[R12.3] a message over MAX_MESSAGE_BYTES drops only that connection', async () => {
    const host = await startTestHost();
    const flooder = await connectRemote(host.url, (await pairDevice(host, 'flooder')).credential);
    const bystander = await connectRemote(host.url, (await pairDevice(host, 'bystander')).credential);
    const seq = host.registry.projection.seq;
    const disconnected = new Promise((resolve) => flooder.socket.once('disconnect', resolve));
    flooder.socket.emit(
      'respond',
      { requestId: 'x', clientResponseId: 'y', blob: 'x'.repeat(400 * 1024) },
      () => undefined,
    );
    await disconnected;
    expect(await bystander.socket.emitWithAck('snapshot:get')).toMatchObject({ ok: true, snapshot: { seq } });
  });

  it('[R12.3] a flooding remote gets rate-limited errors while another remote is served', async () => {
    const host = await startTestHost({ rateLimits: { remote: { capacity: 10, refillPerSecond: 1 } } });
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const flooder = await connectRemote(host.url, (await pairDevice(host, 'flooder')).credential);
    const other = await connectRemote(host.url, (await pairDevice(host, 'other')).credential);
    const request = questionRequest();
    await runtime.socket.emitWithAck('announce', request);
    const flood = await Promise.all(Array.from({ length: 50 }, () => flooder.socket.emitWithAck('snapshot:get')));
    const limited = flood.filter((ack) => !ack.ok && ack.error.code === 'rate-limited');
    expect(limited.length).toBeGreaterThanOrEqual(30);
    const answer = await other.socket.emitWithAck('respond', {
      requestId: request.requestId,
      clientResponseId: 'other-1',
      response: { action: 'accept', content: { answers: {} } },
    });
    expect(answer).toMatchObject({ ok: true, status: 'accepted' });
  });

  it('[R12.1] refuses a browser from a foreign origin, accepts the same origin', async () => {
    const host = await startTestHost();
    const response = await fetch(`${host.url}/socket.io/?EIO=4&transport=polling`, {
      headers: { Origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
    const same = await fetch(`${host.url}/socket.io/?EIO=4&transport=polling`, { headers: { Origin: host.url } });
    expect(same.status).toBe(200);
  });
});

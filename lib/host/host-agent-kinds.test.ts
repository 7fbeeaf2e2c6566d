import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { agentOf, SECRET_ANSWER_MASK, type InteractionRequest } from '../contracts';
import { closeAllClients, connectRemote, connectRuntime } from './test-support/clients';
import { pairDevice } from './test-support/devices';
import { questionRequest } from './test-support/fixtures';
import { closeAllHosts, startTestHost, TEST_TOKEN } from './test-support/test-host';

afterEach(async () => {
  closeAllClients();
  await closeAllHosts();
});

const CODEX = { kind: 'codex' as const, name: 'Codex', version: '0.171.0' };

function base(kind: string, toolName: string) {
  return {
    requestId: `req-${randomUUID()}`,
    protocolRequestId: `proto-${randomUUID()}`,
    sessionId: 'thread-1',
    toolName,
    createdAt: new Date().toISOString(),
    kind,
    agent: CODEX,
  };
}

const commandApproval = (): InteractionRequest =>
  ({
    ...base('approval', 'exec_command'),
    input: {
      subject: 'command',
      command: "/bin/bash -lc 'touch /srv/outside.txt'",
      cwd: '/home/ada/src/shop',
      reason: 'Write outside the workspace?',
      choices: [
        { id: 'accept', label: 'Allow once', effect: 'allow' },
        { id: 'acceptForSession', label: 'Allow for this session', effect: 'allow-session' },
        { id: 'decline', label: 'Deny', effect: 'deny' },
        { id: 'cancel', label: 'Stop the turn', effect: 'cancel' },
      ],
    },
  }) as InteractionRequest;

const form = (): InteractionRequest =>
  ({
    ...base('form', 'elicitation'),
    input: {
      serverName: 'widgets',
      message: 'Pick a color',
      mode: 'form',
      fields: [
        {
          name: 'color',
          type: 'enum',
          multiple: false,
          required: true,
          options: [{ value: 'red' }, { value: 'blue' }],
        },
        { name: 'count', type: 'integer', required: false, minimum: 1, maximum: 9 },
        { name: 'ok', type: 'boolean', required: false },
      ],
    },
  }) as InteractionRequest;

const secretQuestion = (): InteractionRequest =>
  ({
    ...base('question', 'request_user_input'),
    inputRules: 'agent',
    input: {
      questions: [
        { question: 'Paste the deploy token', header: 'Token', kind: 'text', secret: true },
        {
          question: 'Which region?',
          header: 'Region',
          allowOther: false,
          options: [{ label: 'eu (Recommended)' }, { label: 'us' }],
        },
      ],
    },
  }) as InteractionRequest;

describe('[R18.1][R18.3][R18.4][R18.5] agents and their own kinds of prompt', () => {
  it('[R18.1] every interaction records the agent that asked; one logged without is inferred from its tool', async () => {
    const host = await startTestHost();
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const approval = commandApproval();
    expect(await runtime.socket.emitWithAck('announce', approval)).toMatchObject({ ok: true });
    expect(host.registry.projection.get(approval.requestId)?.agent).toEqual(CODEX);
    const old = questionRequest({
      origin: { kind: 'root', label: 'x', path: [], depth: 0, client: { name: 'cursor', version: '1.2' } },
    });
    await runtime.socket.emitWithAck('announce', old);
    const view = host.registry.projection.get(old.requestId);
    expect(view && agentOf(view)).toEqual({ kind: 'mcp', name: 'cursor', version: '1.2' });
  });

  it('[R18.3] an approval is accepted with one of its allowing choices; deny and cancel are declines and cancels', async () => {
    const host = await startTestHost();
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const phone = await connectRemote(host.url, (await pairDevice(host)).credential);
    const approval = commandApproval();
    await runtime.socket.emitWithAck('announce', approval);
    const respond = (content: unknown) =>
      phone.socket.emitWithAck('respond', {
        requestId: approval.requestId,
        clientResponseId: randomUUID(),
        response: { action: 'accept', content },
      });
    expect(await respond(undefined)).toMatchObject({
      ok: false,
      error: { code: 'invalid-response', message: expect.stringMatching(/"accept", "acceptForSession"/) },
    });
    expect(await respond({ choice: 'decline' })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/does not allow/) },
    });
    expect(await respond({ choice: 'nope' })).toMatchObject({ ok: false });
    expect(await respond({ answers: {} })).toMatchObject({ ok: false });
    expect(await respond({ choice: 'acceptForSession' })).toMatchObject({ ok: true, status: 'accepted' });
    await expect.poll(() => runtime.resolved.length).toBe(1);
    expect(runtime.resolved[0]?.resolution.response).toEqual({
      action: 'accept',
      content: { choice: 'acceptForSession' },
    });
  });

  it('[R18.4] a form is accepted with values that fill in its fields', async () => {
    const host = await startTestHost();
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const phone = await connectRemote(host.url, (await pairDevice(host)).credential);
    const request = form();
    await runtime.socket.emitWithAck('announce', request);
    const respond = (values: unknown) =>
      phone.socket.emitWithAck('respond', {
        requestId: request.requestId,
        clientResponseId: randomUUID(),
        response: { action: 'accept', content: { values } },
      });
    expect(await respond({})).toMatchObject({ ok: false, error: { message: '"color" is required' } });
    expect(await respond({ color: 'green' })).toMatchObject({
      ok: false,
      error: { message: '"color" must be one of its options' },
    });
    expect(await respond({ color: 'red', count: 2.5 })).toMatchObject({
      ok: false,
      error: { message: '"count" must be a whole number' },
    });
    expect(await respond({ color: 'red', count: 10 })).toMatchObject({ ok: false });
    expect(await respond({ color: 'red', extra: 1 })).toMatchObject({
      ok: false,
      error: { message: 'The form has no field "extra"' },
    });
    expect(await respond({ color: 'blue', count: 3, ok: true })).toMatchObject({ ok: true, status: 'accepted' });
  });

  it('[R18.5] a secret answer reaches the agent and no phone: events, snapshots and acks carry the mask', async () => {
    const host = await startTestHost();
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const phone = await connectRemote(host.url, (await pairDevice(host, 'phone')).credential);
    const watcher = await connectRemote(host.url, (await pairDevice(host, 'tablet')).credential);
    const request = secretQuestion();
    await runtime.socket.emitWithAck('announce', request);
    const respond = (answers: Record<string, string>) =>
      phone.socket.emitWithAck('respond', {
        requestId: request.requestId,
        clientResponseId: randomUUID(),
        response: { action: 'accept', content: { answers } },
      });
    // This agent takes only its options for the region question.
    expect(await respond({ 'Which region?': 'mars' })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/only its options/) },
    });
    const ack = await respond({ 'Paste the deploy token': 's3cret-value', 'Which region?': 'eu (Recommended)' });
    expect(ack).toMatchObject({ ok: true, status: 'accepted' });
    expect(JSON.stringify(ack)).not.toContain('s3cret');
    await expect.poll(() => runtime.resolved.length).toBe(1);
    expect(runtime.resolved[0]?.resolution.response).toMatchObject({
      content: { answers: { 'Paste the deploy token': 's3cret-value' } },
    });
    await expect.poll(() => watcher.events.some((event) => event.type === 'interaction.resolved')).toBe(true);
    expect(JSON.stringify(watcher.events)).not.toContain('s3cret');
    expect(JSON.stringify(watcher.events)).toContain(SECRET_ANSWER_MASK);
    const later = await connectRemote(host.url, (await pairDevice(host, 'laptop browser')).credential);
    expect(JSON.stringify(later.snapshots)).not.toContain('s3cret');
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { FINISHED_TURN_EDITOR_REASON, FINISHED_TURN_MESSAGE_MAX, type InteractionRecord } from '../../../contracts';
import { pairDevice } from '../../../host/test-support/devices';
import { closeAllHosts, startTestHost, TEST_TOKEN } from '../../../host/test-support/test-host';
import { runtimeClientProvider } from '../../runtime-client-provider';
import { connectScriptedRemote, type ScriptedRemote } from '../../test-support/scripted-remote';
import {
  ACP_TURN_CARDS_MAX,
  ACP_TURNS_WATCHED_MAX,
  failureOf,
  SESSION_CLOSED_REASON,
  TOO_MANY_TURNS_REASON,
  turnEnd,
} from './finished-turn-relay';
import { createAcpProxy, type AcpProxy } from './proxy';
import { AGENT_EXITED_REASON } from './terminal-answer';

// Finished turns through `askaway acp` (R19.60–R19.65): the proxy between an editor's lines and an agent's, a real
// host, a scripted phone.

const opened: { proxy: AcpProxy; remote: ScriptedRemote }[] = [];

afterEach(async () => {
  for (const { proxy, remote } of opened.splice(0)) {
    remote.close();
    await proxy.close();
  }
  await closeAllHosts();
});

const line = (message: unknown) => JSON.stringify(message);
const isTurn = (record: InteractionRecord) => record.kind === 'finished-turn';
/** A finished-turn card's input; undefined for any other card. */
const turnInput = (record: InteractionRecord) => (record.kind === 'finished-turn' ? record.input : undefined);

async function setup() {
  const host = await startTestHost();
  const remote = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
  const toEditor: string[] = [];
  const toAgent: string[] = [];
  const logs: string[] = [];
  const proxy = createAcpProxy({
    runtime: runtimeClientProvider({ url: host.url, token: TEST_TOKEN }),
    toEditor: (text) => toEditor.push(String(text)),
    toAgent: (text) => toAgent.push(String(text)),
    log: (text) => logs.push(text),
    command: '/usr/local/bin/gemini',
  });
  opened.push({ proxy, remote });
  proxy.fromEditor(line({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } }));
  proxy.fromAgent(
    line({
      jsonrpc: '2.0',
      id: 0,
      result: { protocolVersion: 1, agentInfo: { name: 'gemini-cli', title: 'Gemini CLI' } },
    }),
  );
  proxy.fromEditor(
    line({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/home/ada/shop', mcpServers: [] } }),
  );
  proxy.fromAgent(line({ jsonrpc: '2.0', id: 1, result: { sessionId: 'sess-1' } }));
  let nextId = 10;
  /** The editor's `session/prompt`; returns its id. */
  const prompt = (sessionId = 'sess-1') => {
    nextId += 1;
    proxy.fromEditor(
      line({
        jsonrpc: '2.0',
        id: nextId,
        method: 'session/prompt',
        params: { sessionId, prompt: [{ type: 'text', text: 'go' }] },
      }),
    );
    return nextId;
  };
  const update = (update: Record<string, unknown>, sessionId = 'sess-1') =>
    proxy.fromAgent(line({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } }));
  const say = (text: string, sessionId = 'sess-1') =>
    update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }, sessionId);
  const end = (id: number, stopReason = 'end_turn') =>
    proxy.fromAgent(line({ jsonrpc: '2.0', id, result: { stopReason } }));
  return { host, remote, proxy, toEditor, toAgent, logs, prompt, update, say, end };
}

describe('[R19.60] finished turns of ACP agents through the proxy', () => {
  it('[R19.60][R19.61] the end of a prompt is a card with the last message, no reply box, the session and project', async () => {
    const { remote, prompt, say, end, update } = await setup();
    const id = prompt();
    say('Looking. ');
    update({ sessionUpdate: 'tool_call', toolCallId: 'c1', status: 'in_progress', kind: 'execute' });
    update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed' });
    say('Added the cache. ');
    say('Tests pass.');
    end(id);
    const card = await remote.next(isTurn);
    expect(card).toMatchObject({
      kind: 'finished-turn',
      toolName: 'finished-turn',
      sessionId: 'sess-1',
      agent: { kind: 'acp', name: 'Gemini CLI' },
      origin: { kind: 'root', sessionId: 'sess-1' },
      context: { cwd: '/home/ada/shop', projectName: 'shop' },
      input: { status: 'completed', message: 'Added the cache. Tests pass.', reply: 'none' },
    });
    // The business id: the session and the proxy's own turn number (unique when another proxy loads the session).
    expect(card.requestId).toMatch(/^turn:sess-1:[0-9a-f]{8}-1$/);
    expect(card.requestId).toBe(`turn:sess-1:${card.origin?.turnId ?? ''}`);
  });

  it('[R19.62] the editor’s next prompt withdraws the card as answered in the editor; its end is the next card', async () => {
    const { remote, prompt, say, end } = await setup();
    const first = prompt();
    say('TURN-1');
    end(first);
    const card = await remote.next(isTurn);
    const second = prompt();
    await vi.waitFor(() =>
      expect(remote.withdrawn(card.requestId)).toEqual({
        reason: FINISHED_TURN_EDITOR_REASON,
        terminalAnswer: { where: 'editor' },
      }),
    );
    // While the editor's prompt runs, nothing of the session is on the phone.
    expect(remote.pending().filter(isTurn)).toEqual([]);
    say('TURN-2');
    end(second);
    const next = await remote.next((record) => isTurn(record) && record.input.message === 'TURN-2');
    expect(next.requestId).not.toBe(card.requestId);
    expect(next.sessionId).toBe('sess-1');
  });

  it('[R19.61] cancelled is interrupted with what was said; a turn the agent stopped early failed, saying why', async () => {
    const { remote, prompt, say, end } = await setup();
    const cancelled = prompt();
    say('partial words');
    end(cancelled, 'cancelled');
    const interrupted = await remote.next(isTurn);
    expect(interrupted.input).toEqual({ status: 'interrupted', message: 'partial words', reply: 'none' });
    const long = prompt();
    say('cut off');
    end(long, 'max_tokens');
    const failed = await remote.next((record) => isTurn(record) && record.input.status === 'failed');
    expect(failed.input).toEqual({
      status: 'failed',
      message: 'cut off',
      error: 'The model reached its token limit',
      reply: 'none',
    });
    // The editor's next prompt had taken the older card of the same session.
    expect(remote.withdrawn(interrupted.requestId)?.reason).toBe(FINISHED_TURN_EDITOR_REASON);
  });

  it('[R19.63] a prompt answered with a JSON-RPC error failed, with its message', async () => {
    const { remote, proxy, prompt } = await setup();
    const id = prompt();
    // Gemini CLI 0.61 passes its model's error on as JSON text in the message.
    proxy.fromAgent(
      line({
        jsonrpc: '2.0',
        id,
        error: {
          code: 400,
          message: '{"error":{"code":400,"message":"E2E model refused","status":"INVALID_ARGUMENT"}}',
        },
      }),
    );
    const card = await remote.next(isTurn);
    expect(card.input).toEqual({ status: 'failed', error: 'E2E model refused', reply: 'none' });
  });

  it("[R19.60] Copilot's subagent message, relayed as the root session's while its task runs, is not the card's", async () => {
    const { remote, prompt, say, update, end } = await setup();
    const id = prompt();
    say('Starting a helper.');
    update({ sessionUpdate: 'tool_call', toolCallId: 't1', status: 'pending', kind: 'other' });
    say('SUB-DONE inner words');
    update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' });
    say('ROOT-DONE');
    end(id);
    expect(turnInput(await remote.next(isTurn))?.message).toBe('ROOT-DONE');
  });

  it('[R19.65] Dismiss on the phone ends the card and sends nothing to the editor or the agent; a reply is refused', async () => {
    const { remote, prompt, say, end, toEditor, toAgent } = await setup();
    const id = prompt();
    say('done');
    end(id);
    const card = await remote.next(isTurn);
    const editorLines = toEditor.length;
    const agentLines = toAgent.length;
    expect(await remote.respond(card.requestId, { action: 'accept', content: { reply: 'do more' } })).toMatchObject({
      ok: false,
    });
    expect(await remote.respond(card.requestId, { action: 'cancel' })).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(remote.pending().filter(isTurn)).toEqual([]));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(toEditor.length).toBe(editorLines);
    expect(toAgent.length).toBe(agentLines);
  });

  it('[R19.60] only prompts: updates outside one (a loaded session’s history) and other sessions’ are not the turn’s', async () => {
    const { remote, prompt, say, end } = await setup();
    say('history replayed by session/load');
    const id = prompt();
    say('mine');
    say('other session', 'sess-2');
    end(id);
    expect(turnInput(await remote.next(isTurn))?.message).toBe('mine');
    // A response to a request that was not a prompt is no turn.
    end(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(remote.pending().filter(isTurn)).toHaveLength(1);
  });

  it('[R19.60] a prompt superseded by a newer one in its session shows nothing when it ends', async () => {
    const { remote, prompt, say, end } = await setup();
    const older = prompt();
    say('older');
    const newer = prompt();
    say('newer');
    end(older, 'cancelled');
    end(newer);
    const card = await remote.next(isTurn);
    expect(card.input).toMatchObject({ status: 'completed', message: 'newer' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(remote.pending().filter(isTurn)).toHaveLength(1);
  });

  it('[R19.60] the editor closing the session, or the agent exiting, takes the card', async () => {
    const { remote, proxy, prompt, say, end } = await setup();
    const id = prompt();
    say('one');
    end(id);
    const card = await remote.next(isTurn);
    proxy.fromEditor(line({ jsonrpc: '2.0', id: 90, method: 'session/close', params: { sessionId: 'sess-1' } }));
    await vi.waitFor(() => expect(remote.withdrawn(card.requestId)?.reason).toBe(SESSION_CLOSED_REASON));
    const again = prompt();
    say('two');
    end(again);
    const next = await remote.next((record) => isTurn(record) && record.input.message === 'two');
    await proxy.close();
    await vi.waitFor(() => expect(remote.withdrawn(next.requestId)?.reason).toBe(AGENT_EXITED_REASON));
  });

  it('[R19.64][R12.19] a long message is clipped with its length; prompts watched and cards shown are bounded', async () => {
    const { remote, prompt, say, end, logs } = await setup();
    const id = prompt();
    for (let index = 0; index < 5; index += 1) say('z'.repeat(10_000));
    end(id);
    const card = await remote.next(isTurn);
    expect(turnInput(card)?.message).toHaveLength(FINISHED_TURN_MESSAGE_MAX);
    expect(turnInput(card)?.clippedFrom).toBe(50_000);

    // More prompts running at once than are watched: the oldest shows nothing when it ends.
    const ids = Array.from({ length: ACP_TURNS_WATCHED_MAX + 1 }, (_, index) => prompt(`many-${index}`));
    expect(logs.some((text) => text.includes(`over ${ACP_TURNS_WATCHED_MAX} prompts`))).toBe(true);
    ids.forEach((promptId, index) => {
      say(`said ${index}`, `many-${index}`);
      end(promptId);
    });
    // One card per session, at most ACP_TURN_CARDS_MAX of them: the oldest leave to make room. Waits for the last
    // card, not for the count alone: the count reaches the cap a few cards before the last one arrives.
    const messages = () => remote.pending().flatMap((record) => (isTurn(record) ? [record.input.message] : []));
    await vi.waitFor(
      () => {
        expect(messages()).toContain(`said ${ACP_TURNS_WATCHED_MAX}`);
        expect(messages()).toHaveLength(ACP_TURN_CARDS_MAX);
      },
      { timeout: 15_000 },
    );
    expect(messages()).not.toContain('said 0');
    expect(remote.withdrawn(card.requestId)?.reason).toBe(TOO_MANY_TURNS_REASON);
  });
});

describe('[R19.61][R19.63] how an ACP turn ended', () => {
  it('[R19.61] maps each stop reason', () => {
    expect(turnEnd('end_turn')).toEqual({ status: 'completed' });
    expect(turnEnd(undefined)).toEqual({ status: 'completed' });
    expect(turnEnd('cancelled')).toEqual({ status: 'interrupted' });
    expect(turnEnd('max_tokens')).toEqual({ status: 'failed', error: 'The model reached its token limit' });
    expect(turnEnd('max_turn_requests')).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('requests'),
    });
    expect(turnEnd('refusal')).toEqual({ status: 'failed', error: 'The agent refused to go on' });
    expect(turnEnd('later_reason')).toEqual({ status: 'failed', error: 'The agent stopped: later_reason' });
  });

  it('[R19.63] says why a prompt failed, bounded, from plain or JSON messages', () => {
    expect(failureOf({ code: -32603, message: 'Internal error' })).toBe('Internal error');
    expect(failureOf({ code: 1, message: '{"message":"inner"}' })).toBe('inner');
    expect(failureOf({ code: 1, message: '{"error":{"message":7}}' })).toBe('{"error":{"message":7}}');
    expect(failureOf({ code: 1 })).toBe('The agent answered the prompt with an error');
    expect(failureOf('nonsense')).toBe('The agent answered the prompt with an error');
    expect(failureOf({ message: 'm'.repeat(100_000) })).toHaveLength(2_000);
    const deep = `{"error":${'['.repeat(5_000)}${']'.repeat(5_000)}}`;
    expect(failureOf({ message: deep })).toHaveLength(2_000);
  });
});

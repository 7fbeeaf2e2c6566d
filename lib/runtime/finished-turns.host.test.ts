import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  FINISHED_TURN_BUSY_REASON,
  FINISHED_TURN_EDITOR_REASON,
  FINISHED_TURN_MESSAGE_MAX,
  FINISHED_TURN_TERMINAL_REASON,
  NEWER_TURN_REASON,
  type InteractionRecord,
} from '../contracts';
import { pairDevice } from '../host/test-support/devices';
import { closeAllHosts, startTestHost, tempDir } from '../host/test-support/test-host';
import { type Host } from '../host';
import { createFinishedTurns, finishedTurnInput, finishedTurnRequestId, type FinishedTurn } from './finished-turns';
import { createRuntimeClient } from './runtime-broker';
import { connectScriptedRemote } from './test-support/scripted-remote';

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await closeAllHosts();
});

const CODEX = { kind: 'codex', name: 'Codex', version: '0.171.0' } as const;

function turn(overrides: Partial<FinishedTurn> = {}): FinishedTurn {
  return {
    sessionId: 'thread-1',
    turnId: 'turn-1',
    agent: CODEX,
    context: { projectName: 'shop', cwd: '/work/shop' },
    status: 'completed',
    message: 'Added the cache.\n\nTests pass.',
    reply: 'prompt',
    ...overrides,
  };
}

async function rig(host?: Host) {
  const started = host ?? (await startTestHost());
  const client = createRuntimeClient({ url: started.url, token: started.token });
  cleanups.push(() => client.close());
  const phone = await connectScriptedRemote(started.url, (await pairDevice(started)).credential);
  cleanups.push(() => phone.close());
  const logs: string[] = [];
  const turns = createFinishedTurns({ client, log: (line) => logs.push(line) });
  return { host: started, client, phone, turns, logs };
}

/** A deliver that records what it was given and answers as told. */
function recorder(answer: 'sent' | 'busy' = 'sent') {
  const texts: string[] = [];
  return {
    texts,
    deliver: (text: string) => {
      texts.push(text);
      return Promise.resolve(answer);
    },
  };
}

const isTurn = (record: InteractionRecord) => record.kind === 'finished-turn';

describe('finished turns: the runtime helper over a real host (R19)', () => {
  it('[R19.1][R19.2] announces a root finished turn with its business id, status, message and reply', async () => {
    const { phone, turns } = await rig();
    void turns.finished(turn(), recorder().deliver);
    const card = await phone.next(isTurn);
    expect(card).toMatchObject({
      kind: 'finished-turn',
      requestId: 'turn:thread-1:turn-1',
      sessionId: 'thread-1',
      toolName: 'finished-turn',
      agent: CODEX,
      origin: { kind: 'root', depth: 0, sessionId: 'thread-1', turnId: 'turn-1' },
      context: { projectName: 'shop' },
      input: { status: 'completed', message: 'Added the cache.\n\nTests pass.', reply: 'prompt' },
    });
    expect(turns.open().get('thread-1')).toBe('turn:thread-1:turn-1');
  });

  it('[R19.4][R19.6] a reply from the phone is delivered as exactly its text, and the card resolves', async () => {
    const { phone, turns, host } = await rig();
    const sent = recorder('sent');
    const outcome = turns.finished(turn(), sent.deliver);
    const card = await phone.next(isTurn);
    const reply = 'Now add a test for the eviction.\n  Keep it short — 中文 too.';
    await expect(phone.respond(card.requestId, { action: 'accept', content: { reply } })).resolves.toMatchObject({
      ok: true,
    });
    await expect(outcome).resolves.toBe('sent');
    expect(sent.texts).toEqual([reply]);
    await vi.waitFor(() => expect(host.registry.projection.get(card.requestId)?.deliveredAt).toBeDefined());
    expect(host.registry.projection.get(card.requestId)?.status).toBe('resolved');
    expect(turns.open().size).toBe(0);
  });

  it('[R19.6] a busy agent refuses the reply: the resolved card is withdrawn after the answer with the busy reason', async () => {
    const { phone, turns, host } = await rig();
    const busy = recorder('busy');
    const outcome = turns.finished(turn(), busy.deliver);
    const card = await phone.next(isTurn);
    await phone.respond(card.requestId, { action: 'accept', content: { reply: 'go on' } });
    await expect(outcome).resolves.toBe('busy');
    await vi.waitFor(() => expect(host.registry.projection.get(card.requestId)?.status).toBe('withdrawn'));
    const view = host.registry.projection.get(card.requestId);
    expect(view?.withdrawnReason).toBe(FINISHED_TURN_BUSY_REASON);
    // The phone still has the reply that was not sent, to copy.
    expect(view?.resolution?.response).toEqual({ action: 'accept', content: { reply: 'go on' } });
  });

  it('[R19.6] a reply that fails to send is withdrawn after the answer with why', async () => {
    const { phone, turns, host } = await rig();
    const outcome = turns.finished(turn(), () => Promise.reject(new Error('daemon gone')));
    const card = await phone.next(isTurn);
    await phone.respond(card.requestId, { action: 'accept', content: { reply: 'go on' } });
    await expect(outcome).resolves.toBe('failed-to-send');
    await vi.waitFor(() =>
      expect(host.registry.projection.get(card.requestId)?.withdrawnReason).toBe(
        'The reply could not be sent: daemon gone',
      ),
    );
  });

  it('[R19.4] Dismiss (cancel) ends the card without delivering anything', async () => {
    const { phone, turns } = await rig();
    const sent = recorder();
    const outcome = turns.finished(turn(), sent.deliver);
    const card = await phone.next(isTurn);
    await phone.respond(card.requestId, { action: 'cancel' });
    await expect(outcome).resolves.toBe('dismissed');
    expect(sent.texts).toEqual([]);
  });

  it('[R19.3] a newer turn of the session withdraws the older card first; other sessions keep theirs', async () => {
    const { phone, turns } = await rig();
    const first = turns.finished(turn(), recorder().deliver);
    const other = turns.finished(turn({ sessionId: 'thread-2' }), recorder().deliver);
    await phone.next((record) => record.requestId === 'turn:thread-1:turn-1');
    await phone.next((record) => record.requestId === 'turn:thread-2:turn-1');
    void turns.finished(turn({ turnId: 'turn-2', message: 'Second.' }), recorder().deliver);
    await expect(first).resolves.toBe('replaced');
    await phone.next((record) => record.requestId === 'turn:thread-1:turn-2');
    await vi.waitFor(() => expect(phone.withdrawn('turn:thread-1:turn-1')?.reason).toBe(NEWER_TURN_REASON));
    expect(
      phone
        .pending()
        .map((record) => record.requestId)
        .sort(),
    ).toEqual(['turn:thread-1:turn-2', 'turn:thread-2:turn-1']);
    expect(turns.open()).toEqual(
      new Map([
        ['thread-1', 'turn:thread-1:turn-2'],
        ['thread-2', 'turn:thread-2:turn-1'],
      ]),
    );
    turns.close('test over');
    await expect(other).resolves.toBe('withdrawn');
  });

  it('[R19.2] the same turn reported again, open or ended, changes nothing', async () => {
    const { phone, turns } = await rig();
    const first = turns.finished(turn(), recorder().deliver);
    const card = await phone.next(isTurn);
    await expect(turns.finished(turn(), recorder().deliver)).resolves.toBe('not-shown');
    await phone.respond(card.requestId, { action: 'cancel' });
    await expect(first).resolves.toBe('dismissed');
    await expect(turns.finished(turn(), recorder().deliver)).resolves.toBe('not-shown');
    expect(phone.pending()).toEqual([]);
  });

  it('[R19.5] a prompt typed at the terminal withdraws the card as answered in the terminal', async () => {
    const { phone, turns, host } = await rig();
    const sent = recorder();
    const outcome = turns.finished(turn(), sent.deliver);
    const card = await phone.next(isTurn);
    turns.answeredInTerminal('thread-1');
    await expect(outcome).resolves.toBe('answered-in-terminal');
    await vi.waitFor(() => expect(phone.withdrawn(card.requestId)?.reason).toBe(FINISHED_TURN_TERMINAL_REASON));
    expect(phone.withdrawn(card.requestId)?.terminalAnswer).toEqual({});
    expect(host.registry.projection.get(card.requestId)?.terminalAnswer).toEqual({});
    expect(sent.texts).toEqual([]);
    // Another session's prompt, or one with no card, changes nothing.
    turns.answeredInTerminal('thread-9');
  });

  it('[R19.5][R19.62] where an editor owns the prompt, its next prompt withdraws the card as answered in the editor', async () => {
    const { phone, turns, host } = await rig();
    const outcome = turns.finished(turn({ reply: 'none' }), recorder().deliver);
    const card = await phone.next(isTurn);
    turns.answeredInTerminal('thread-1', 'editor');
    await expect(outcome).resolves.toBe('answered-in-terminal');
    await vi.waitFor(() => expect(phone.withdrawn(card.requestId)?.reason).toBe(FINISHED_TURN_EDITOR_REASON));
    expect(phone.withdrawn(card.requestId)?.terminalAnswer).toEqual({ where: 'editor' });
    expect(host.registry.projection.get(card.requestId)?.terminalAnswer).toEqual({ where: 'editor' });
  });

  it('[R19.2] a card is re-announced by its id after the host restarts, and a reply then still arrives', async () => {
    const dataDir = tempDir();
    const first = await startTestHost({ dataDir });
    const port = Number(new URL(first.url).port);
    const { phone, turns, client } = await rig(first);
    const sent = recorder();
    const outcome = turns.finished(turn(), sent.deliver);
    const card = await phone.next(isTurn);
    phone.close();
    await first.close();

    const second = await startTestHost({ dataDir, port });
    await vi.waitFor(() => expect(client.connection.failure).toBeNull());
    const again = await connectScriptedRemote(second.url, (await pairDevice(second)).credential);
    cleanups.push(() => again.close());
    const restored = await again.next((record) => record.requestId === card.requestId, 15_000);
    expect(restored.input).toEqual(card.input);
    await again.respond(card.requestId, { action: 'accept', content: { reply: 'after the restart' } });
    await expect(outcome).resolves.toBe('sent');
    expect(sent.texts).toEqual(['after the restart']);
  });
});

describe('finished turns: what the card carries (R19.1, R19.2)', () => {
  it('[R19.1] a message past the limit is clipped, with its length; an error only on a failed turn', () => {
    const long = 'x'.repeat(FINISHED_TURN_MESSAGE_MAX + 500);
    const input = finishedTurnInput({ status: 'completed', message: long, error: 'ignored', reply: 'prompt' });
    expect(input.message?.length).toBe(FINISHED_TURN_MESSAGE_MAX);
    expect(input.message?.endsWith('…')).toBe(true);
    expect(input.clippedFrom).toBe(FINISHED_TURN_MESSAGE_MAX + 500);
    expect(input.error).toBeUndefined();
    expect(finishedTurnInput({ status: 'failed', message: '  ', error: 'e'.repeat(5_000), reply: 'none' })).toEqual({
      status: 'failed',
      error: 'e'.repeat(2_000),
      reply: 'none',
    });
  });

  it('[R19.1][R19.64] a message whose start alone was kept says the length it had', () => {
    const kept = 'k'.repeat(FINISHED_TURN_MESSAGE_MAX);
    const input = finishedTurnInput({ status: 'completed', message: kept, messageLength: 90_000, reply: 'none' });
    expect(input.message).toBe(`${'k'.repeat(FINISHED_TURN_MESSAGE_MAX - 1)}…`);
    expect(input.clippedFrom).toBe(90_000);
    // A length no longer than the message changes nothing.
    expect(finishedTurnInput({ status: 'completed', message: 'short', messageLength: 3, reply: 'none' })).toEqual({
      status: 'completed',
      message: 'short',
      reply: 'none',
    });
  });

  it('[R19.1] a clip never splits a surrogate pair', () => {
    const message = 'a'.repeat(FINISHED_TURN_MESSAGE_MAX - 2) + '😀'.repeat(10);
    const clipped = finishedTurnInput({ status: 'completed', message, reply: 'prompt' }).message ?? '';
    expect(clipped.length).toBeLessThanOrEqual(FINISHED_TURN_MESSAGE_MAX);
    expect(clipped.endsWith('a…')).toBe(true);
  });

  it('[R19.2] the business id is turn:<session>:<turn>, a digest when that is too long', () => {
    expect(finishedTurnRequestId('s', 't')).toBe('turn:s:t');
    const long = finishedTurnRequestId('s'.repeat(200), 't');
    expect(long).toMatch(/^turn:[0-9a-f]{64}$/);
    expect(finishedTurnRequestId('s'.repeat(200), 't')).toBe(long);
    expect(finishedTurnRequestId('s'.repeat(200), 'u')).not.toBe(long);
  });
});

describe('finished turns: withdrawals cover a reply in flight (R19.5)', () => {
  it('[R19.5] the terminal answering withdraws after the answer, so a reply the hub already took is not shown as sent', async () => {
    const withdrawals: unknown[][] = [];
    const client = {
      connection: {
        withdraw: (...args: unknown[]) => {
          withdrawals.push(args);
          return Promise.resolve();
        },
      },
      broker: {
        requestInteraction: (_request: unknown, options?: { signal?: AbortSignal }) =>
          new Promise<never>((_resolve, reject) => {
            options?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
          }),
      },
      close: () => Promise.resolve(),
    } as unknown as Parameters<typeof createFinishedTurns>[0]['client'];
    const turns = createFinishedTurns({ client, log: () => undefined });
    const outcome = turns.finished(turn(), recorder().deliver);
    turns.answeredInTerminal('thread-1');
    await expect(outcome).resolves.toBe('answered-in-terminal');
    expect(withdrawals).toEqual([['turn:thread-1:turn-1', FINISHED_TURN_TERMINAL_REASON, {}, { afterAnswer: true }]]);
  });
});

import { appendFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import {
  FINISHED_TURN_BUSY_REASON,
  FINISHED_TURN_MESSAGE_MAX,
  FINISHED_TURN_TERMINAL_REASON,
  FinishedTurnInputSchema,
  type InteractionRecord,
} from '../../../contracts';
import {
  AGENT_GONE_REASON,
  DEFAULT_REPLY_WAIT_MS,
  DEFAULT_STOP_HOOK_BLOCK_CAP,
  PHONE_REPLY_PREFIX,
  REPLY_WAIT_OVER_REASON,
  STOPPED_WAITING_REASON,
  stopHookBlockCap,
  WORKING_AGAIN_REASON,
} from './finished-turn';
import { claudeCodeHookHarness } from './test-support/claude-code-hook-harness';

// Claude Code's finished turns through its Stop hooks (R19.50–R19.56): the hook in this process, a real host, a
// scripted phone, the transcript written by the test and polled when the test ticks.

const harness = claudeCodeHookHarness();
const { polls, deadlines } = harness;
const phone = () => harness.phone();
let turns = 0;

function stop(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  turns += 1;
  return {
    session_id: `ft-session-${turns}`,
    transcript_path: harness.transcript(),
    cwd: '/home/dev/my-app',
    prompt_id: `prompt-${turns}`,
    permission_mode: 'default',
    hook_event_name: 'Stop',
    stop_hook_active: false,
    last_assistant_message: `TURN-${turns}: the widget is blue.\nSay what next.`,
    background_tasks: [],
    ...overrides,
  };
}

/** A line Claude Code appends to the transcript, dated now. */
function append(entry: Record<string, unknown>): void {
  appendFileSync(harness.transcript(), `${JSON.stringify({ timestamp: new Date().toISOString(), ...entry })}\n`);
}

const typedPrompt = () => append({ type: 'queue-operation', operation: 'enqueue', content: 'make it red' });

const cardOf = (payload: Record<string, unknown>): Promise<InteractionRecord> =>
  phone().next((record) => record.kind === 'finished-turn' && record.sessionId === payload.session_id, 10_000);

async function setAway(away: boolean): Promise<void> {
  await phone().updatePreferences({ away });
}

/**
 * Until the hook has read the transcript as it is now: it follows the file, and its first read is done (a tick
 * waits for a read in flight). A line appended after this is news only to the next read, as in a real session.
 */
async function settle(): Promise<void> {
  await vi.waitFor(() => expect(polls.running()).toBeGreaterThan(0));
  await polls.tick();
}

describe('Claude Code finished turns (command hook)', () => {
  it('[R19.50][R19.52] away: the waiting Stop hook holds the turn, the phone’s reply is its feedback, the background hook steps aside', async () => {
    await setAway(true);
    const payload = stop();
    expect((await harness.runHook('command', payload, { finishedCard: true })).reply).toEqual({});
    const run = harness.runHook('command', payload);
    const card = await cardOf(payload);
    expect(card).toMatchObject({
      kind: 'finished-turn',
      toolName: 'finished-turn',
      agent: { kind: 'claude-code' },
      origin: { kind: 'root' },
      input: { status: 'completed', reply: 'prompt', message: payload.last_assistant_message },
      context: { cwd: '/home/dev/my-app', projectName: 'my-app' },
    });
    expect(card.input).not.toHaveProperty('noReply');
    expect(deadlines.pending()).toContain(DEFAULT_REPLY_WAIT_MS);
    await phone().respond(card.requestId, { action: 'accept', content: { reply: 'Now make it red' } });
    expect((await run).reply).toEqual({ decision: 'block', reason: `${PHONE_REPLY_PREFIX}Now make it red` });
  });

  it('[R19.50] at the desk: the waiting hook ends the turn at once, the background one shows it without a reply box until a prompt is typed', async () => {
    await setAway(false);
    const payload = stop();
    expect((await harness.runHook('command', payload)).reply).toEqual({});
    const run = harness.runHook('command', payload, { finishedCard: true });
    const card = await cardOf(payload);
    expect(card.input).toMatchObject({ status: 'completed', reply: 'none', noReply: 'not-away' });
    await settle();
    typedPrompt();
    await polls.tick();
    expect((await run).reply).toEqual({});
    expect(phone().withdrawn(card.requestId)?.reason).toBe(FINISHED_TURN_TERMINAL_REASON);
  });

  it('[R19.54] away: a prompt typed in the terminal first withdraws the card as answered there and lets the prompt run', async () => {
    await setAway(true);
    const payload = stop();
    const run = harness.runHook('command', payload);
    const card = await cardOf(payload);
    await settle();
    // The prompt that started the turn is older than the hook: not an answer.
    append({
      type: 'user',
      origin: { kind: 'human' },
      message: { role: 'user', content: 'hi' },
      timestamp: '2020-01-01',
    });
    typedPrompt();
    await polls.tick();
    expect((await run).reply).toEqual({});
    expect(phone().withdrawn(card.requestId)).toMatchObject({
      reason: FINISHED_TURN_TERMINAL_REASON,
      terminalAnswer: {},
    });
    // A reply from a phone that had not heard yet is refused by the host.
    const late = await phone().respond(card.requestId, { action: 'accept', content: { reply: 'too late' } });
    expect(late.ok).toBe(false);
  });

  it('[R19.54][R19.6] a reply that arrives after a prompt was typed but before the hook heard it is not given to Claude Code', async () => {
    await setAway(true);
    const payload = stop();
    const run = harness.runHook('command', payload);
    const card = await cardOf(payload);
    await settle();
    // Typed, and the poll has not run: the check right before handing the reply over reads it.
    typedPrompt();
    await phone().respond(card.requestId, { action: 'accept', content: { reply: 'must not reach Claude' } });
    expect((await run).reply).toEqual({});
    await expect.poll(() => phone().withdrawn(card.requestId)?.reason).toBe(FINISHED_TURN_BUSY_REASON);
  });

  it('[R19.50] the wait ends: at --reply-wait, when Claude Code stops the hook, or when Claude Code exits; each card says why', async () => {
    await setAway(true);
    const timed = stop();
    const timedRun = harness.runHook('command', timed, { replyWait: '2m' });
    const timedCard = await cardOf(timed);
    expect(deadlines.expire(120_000)).toBe(1);
    expect((await timedRun).reply).toEqual({});
    expect(phone().withdrawn(timedCard.requestId)?.reason).toBe(REPLY_WAIT_OVER_REASON);

    const stopped = stop();
    const controller = new AbortController();
    const stoppedRun = harness.runHook('command', stopped, { stop: controller.signal });
    const stoppedCard = await cardOf(stopped);
    controller.abort(new Error('SIGTERM'));
    await stoppedRun;
    await expect.poll(() => phone().withdrawn(stoppedCard.requestId)?.reason).toBe(STOPPED_WAITING_REASON);

    const orphaned = stop();
    let gone: () => void = () => undefined;
    const orphanedRun = harness.runHook('command', orphaned, {
      watchAgent: (callback) => {
        gone = callback;
        return () => undefined;
      },
    });
    const orphanedCard = await cardOf(orphaned);
    gone();
    expect((await orphanedRun).reply).toEqual({});
    expect(phone().withdrawn(orphanedCard.requestId)?.reason).toBe(AGENT_GONE_REASON);
  });

  it('[R19.50] the background card leaves when Claude goes on by itself; background work and subagents get no card', async () => {
    await setAway(false);
    const payload = stop();
    const run = harness.runHook('command', payload, { finishedCard: true });
    const card = await cardOf(payload);
    await settle();
    append({
      type: 'assistant',
      uuid: 'woken',
      message: { role: 'assistant', content: [{ type: 'text', text: 'Tests passed.' }] },
    });
    await polls.tick();
    await run;
    expect(phone().withdrawn(card.requestId)?.reason).toBe(WORKING_AGAIN_REASON);

    const busy = stop({ background_tasks: [{ id: 'b1', status: 'running', description: 'npm test' }] });
    const done = stop({ background_tasks: [{ id: 'b2', status: 'completed' }] });
    const subagent = stop({ agent_id: 'agent-7' });
    for (const quiet of [busy, subagent])
      expect((await harness.runHook('command', quiet, { finishedCard: true })).reply).toEqual({});
    const doneRun = harness.runHook('command', done, { finishedCard: true });
    const doneCard = await cardOf(done);
    expect(
      phone()
        .pending()
        .some((record) => record.sessionId === busy.session_id),
    ).toBe(false);
    expect(
      phone()
        .pending()
        .some((record) => record.sessionId === subagent.session_id),
    ).toBe(false);
    await phone().respond(doneCard.requestId, { action: 'cancel' });
    expect((await doneRun).reply).toEqual({});
  });

  it('[R19.53] --no-reply: the turn is shown without a reply box even while away, and Dismiss ends the hook', async () => {
    await setAway(true);
    const payload = stop();
    const run = harness.runHook('command', payload, { finishedCard: true, noReply: true });
    const card = await cardOf(payload);
    expect(card.input).toMatchObject({ reply: 'none', noReply: 'switched-off' });
    const refused = await phone().respond(card.requestId, { action: 'accept', content: { reply: 'no box for this' } });
    expect(refused.ok).toBe(false);
    await phone().respond(card.requestId, { action: 'cancel' });
    expect((await run).reply).toEqual({});
  });

  it('[R19.55] a failed turn (StopFailure) is a card with Claude Code’s error and no reply; the waiting hook leaves it alone', async () => {
    await setAway(true);
    const payload = {
      ...stop(),
      hook_event_name: 'StopFailure',
      error: 'unknown',
      last_assistant_message: 'API Error: 400 E2E model refused',
    };
    expect((await harness.runHook('command', payload)).reply).toEqual({});
    const run = harness.runHook('command', payload, { finishedCard: true });
    const card = await cardOf(payload);
    expect(card.input).toMatchObject({
      status: 'failed',
      error: 'API Error: 400 E2E model refused',
      reply: 'none',
      noReply: 'turn-failed',
    });
    await phone().respond(card.requestId, { action: 'cancel' });
    await run;
  });

  it('[R19.51][R19.1] a turn a reply started is a card of its own; a message of any size is clipped; the HTTP hook leaves Stop to Claude Code', async () => {
    await setAway(true);
    const first = stop();
    append({ type: 'assistant', uuid: 'first-turn', message: { role: 'assistant', content: 'first' } });
    const firstRun = harness.runHook('command', first);
    const firstCard = await cardOf(first);
    await phone().respond(firstCard.requestId, { action: 'accept', content: { reply: 'go on' } });
    await firstRun;
    // The continued turn: the same session and prompt, stop_hook_active, a new last assistant entry.
    append({ type: 'assistant', uuid: 'continued-turn', message: { role: 'assistant', content: 'x' } });
    const huge = 'y'.repeat(FINISHED_TURN_MESSAGE_MAX * 3);
    const continued = { ...first, stop_hook_active: true, last_assistant_message: huge };
    const continuedRun = harness.runHook('command', continued);
    const continuedCard = await phone().next(
      (record) => record.sessionId === first.session_id && record.requestId !== firstCard.requestId,
      10_000,
    );
    const input = FinishedTurnInputSchema.parse(continuedCard.input);
    expect(input.clippedFrom).toBe(huge.length);
    expect(input.message?.length).toBeLessThanOrEqual(FINISHED_TURN_MESSAGE_MAX);
    await phone().respond(continuedCard.requestId, { action: 'cancel' });
    expect((await continuedRun).reply).toEqual({});

    const viaHttp = stop();
    expect((await harness.runHook('http', viaHttp)).reply).toEqual({});
    expect(
      phone()
        .pending()
        .some((record) => record.sessionId === viaHttp.session_id),
    ).toBe(false);
  });
  it('[R19.56] past Claude Code’s cap on continuations in a row, the turn is shown without a reply box: a reply would be overridden', async () => {
    await setAway(true);
    // Typed before the hook starts, as the prompt that began the turn was.
    const humanPrompt = () =>
      append({
        type: 'user',
        origin: { kind: 'human' },
        message: { role: 'user', content: 'go' },
        timestamp: new Date(Date.now() - 5_000).toISOString(),
      });
    const feedback = () =>
      append({
        type: 'user',
        isMeta: true,
        rowSource: 'hook',
        message: { role: 'user', content: `Stop hook feedback:\n${PHONE_REPLY_PREFIX}more` },
      });
    humanPrompt();
    for (let index = 0; index < DEFAULT_STOP_HOOK_BLOCK_CAP - 1; index += 1) feedback();
    // Seven continuations so far: one more reply still reaches the model.
    const below = stop({ stop_hook_active: true });
    const belowRun = harness.runHook('command', below);
    const belowCard = await cardOf(below);
    expect(belowCard.input).toMatchObject({ reply: 'prompt' });
    await phone().respond(belowCard.requestId, { action: 'cancel' });
    await belowRun;
    feedback();
    // The eighth: Claude Code would override a ninth block, so nothing waits and the card says why.
    const capped = stop({ stop_hook_active: true });
    expect((await harness.runHook('command', capped)).reply).toEqual({});
    const cardRun = harness.runHook('command', capped, { finishedCard: true });
    const card = await cardOf(capped);
    expect(card.input).toMatchObject({ reply: 'none', noReply: 'reply-limit' });
    await phone().respond(card.requestId, { action: 'cancel' });
    await cardRun;
    // A prompt typed at the terminal starts the count again.
    humanPrompt();
    const fresh = stop();
    const freshRun = harness.runHook('command', fresh);
    const freshCard = await cardOf(fresh);
    expect(freshCard.input).toMatchObject({ reply: 'prompt' });
    await phone().respond(freshCard.requestId, { action: 'cancel' });
    await freshRun;
    expect(stopHookBlockCap('2')).toBe(2);
    expect(stopHookBlockCap('lots')).toBe(DEFAULT_STOP_HOOK_BLOCK_CAP);
    expect(stopHookBlockCap(undefined)).toBe(DEFAULT_STOP_HOOK_BLOCK_CAP);
  });
});

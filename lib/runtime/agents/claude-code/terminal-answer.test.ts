import { randomUUID } from 'node:crypto';
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { expectItem } from '../../../core/test-support/expect-item';
import { tempDir } from '../../../host/test-support/test-host';
import { claudeCodeHookHarness, type Via } from './test-support/claude-code-hook-harness';
import { hookCalls, planTranscript, toolTranscript, type CapturedHookCall } from './fixtures';
import { ANSWERED_IN_TERMINAL_REASON } from './terminal-answer';

// The hook against real transcript lines from Claude Code 2.1.332 (fixtures/): the person answers the
// prompt in the terminal, Claude Code logs the tool result and leaves the hook running.
const harness = claudeCodeHookHarness();
const { polls } = harness;
const phone = () => harness.phone();

/** A transcript holding `lines`, and the captured call pointed at it in a session of its own. */
function session(call: CapturedHookCall, lines: string[]) {
  const transcript = path.join(tempDir('askaway-terminal-'), 'session.jsonl');
  writeFileSync(transcript, lines.map((line) => `${line}\n`).join(''));
  const body = { ...call.payload, session_id: `terminal-${randomUUID()}`, transcript_path: transcript };
  return { transcript, body };
}

/** Claude Code logs the answer now (the captured line, dated now: the capture is older than this test). */
function logNow(transcript: string, line: string) {
  appendFileSync(transcript, `${JSON.stringify({ ...JSON.parse(line), timestamp: new Date().toISOString() })}\n`);
}

async function withdrawnReason(requestId: string): Promise<string | undefined> {
  const event = (await harness.host().registry.readSince(0, 100_000)).find(
    (entry) => entry.type === 'interaction.withdrawn' && entry.requestId === requestId,
  );
  return event?.type === 'interaction.withdrawn' ? event.reason : undefined;
}

describe.each<Via>(['command', 'http'])('a permission prompt answered in the terminal first (%s hook)', (via) => {
  it('[R11.7] a plan approved in the terminal withdraws the card and the hook ends without an opinion', async () => {
    const { lines, secondPlanCall, secondPlanApproved } = planTranscript;
    // The file already holds the earlier plan, rejected: that answer is not this one's.
    const { transcript, body } = session(hookCalls.planApproved, lines.slice(0, secondPlanCall + 1));
    const reply = harness.runHook(via, body);
    const card = await phone().next((record) => record.sessionId === body.session_id, 20_000);
    expect(card).toMatchObject({ kind: 'plan-approval', toolName: 'ExitPlanMode' });

    logNow(transcript, expectItem(lines, secondPlanApproved));
    expect(await polls.tick()).toBe(1);
    expect((await reply).reply).toEqual({});
    await vi.waitFor(async () => expect(await withdrawnReason(card.requestId)).toBe(ANSWERED_IN_TERMINAL_REASON));
    expect(polls.running()).toBe(0);
  });

  it("[R11.7] an older plan's answer in the transcript leaves the card to the phone", async () => {
    const { lines, secondPlanCall } = planTranscript;
    const { body } = session(hookCalls.planApproved, lines.slice(0, secondPlanCall + 1));
    const reply = harness.runHook(via, body);
    const card = await phone().next((record) => record.sessionId === body.session_id, 20_000);
    // Read with the file as it is: an answer found there would end the hook before the phone's arrives.
    expect(await polls.tick()).toBe(1);
    await phone().respond(card.requestId, { action: 'accept' });
    expect((await reply).reply).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'allow', updatedInput: hookCalls.planApproved.payload.tool_input },
      },
    });
    expect(polls.running()).toBe(0);
  });

  it('[R11.7] --all-tools: a Write approved in the terminal withdraws its card', async () => {
    const { lines, firstWriteCall, firstWriteApproved } = toolTranscript;
    const { transcript, body } = session(hookCalls.writeApproved, lines.slice(0, firstWriteCall + 1));
    const reply = harness.runHook(via, body, { allTools: true });
    const card = await phone().next((record) => record.sessionId === body.session_id, 20_000);
    expect(card).toMatchObject({ kind: 'permission', toolName: 'Write' });

    logNow(transcript, expectItem(lines, firstWriteApproved));
    await polls.tick();
    expect((await reply).reply).toEqual({});
    await vi.waitFor(async () => expect(await withdrawnReason(card.requestId)).toBe(ANSWERED_IN_TERMINAL_REASON));
  });

  it("[R11.7] a subagent's prompt is not watched (its calls are logged elsewhere)", async () => {
    const { lines, secondPlanCall } = planTranscript;
    const { body } = session(hookCalls.writeApproved, lines.slice(0, secondPlanCall + 1));
    const reply = harness.runHook(
      via,
      { ...body, agent_id: 'agent-a1b2', agent_type: 'general-purpose' },
      { allTools: true },
    );
    const card = await phone().next((record) => record.sessionId === body.session_id, 20_000);
    expect(polls.running()).toBe(0);
    await phone().respond(card.requestId, { action: 'decline', message: 'not from a subagent' });
    expect((await reply).reply).toMatchObject({ hookSpecificOutput: { decision: { behavior: 'deny' } } });
  });
});

// Claude Code shows its dialog as it starts the command hook; Node then boots, loads the CLI and reads stdin
// (a few hundred ms, seconds on a busy machine). An answer typed in the terminal meanwhile is dated before the
// hook's handler ran, and must still count: the hook dates itself from its process's start.
describe('a prompt answered in the terminal while the command hook was still starting', () => {
  /** A captured line, dated `ms` after the hook process started. */
  const datedAt = (line: string, processStartedAt: number, ms: number) =>
    JSON.stringify({ ...JSON.parse(line), timestamp: new Date(processStartedAt + ms).toISOString() });

  it('[R11.7] a Write approved 400 ms into the hook’s start-up withdraws its card', async () => {
    const { lines, firstWriteCall, firstWriteApproved } = toolTranscript;
    const processStartedAt = Date.now() - 2_000;
    const { transcript, body } = session(hookCalls.writeApproved, [
      datedAt(expectItem(lines, firstWriteCall), processStartedAt, -300),
    ]);
    const reply = harness.runHook('command', body, { allTools: true, processStartedAt });
    const card = await phone().next((record) => record.sessionId === body.session_id, 20_000);
    expect(await polls.tick()).toBe(1);

    // Claude Code's buffered write lands only now, dated when the person pressed Enter.
    appendFileSync(transcript, `${datedAt(expectItem(lines, firstWriteApproved), processStartedAt, 400)}\n`);
    expect(await polls.tick()).toBe(1);
    await vi.waitFor(async () => expect(await withdrawnReason(card.requestId)).toBe(ANSWERED_IN_TERMINAL_REASON));
    expect(await reply).toEqual({
      reply: {},
      stderr: `askaway hook: ${ANSWERED_IN_TERMINAL_REASON}; withdrawn from the phone\n`,
    });
    expect(polls.running()).toBe(0);
  });

  it('[R11.7] a result dated before the hook process started answered an earlier call, even with the same input', async () => {
    const { lines, firstWriteCall, firstWriteApproved } = toolTranscript;
    const processStartedAt = Date.now() - 2_000;
    // The model wrote the same file with the same content before; this call is not logged yet.
    const { body } = session(hookCalls.writeApproved, [
      datedAt(expectItem(lines, firstWriteCall), processStartedAt, -300),
      datedAt(expectItem(lines, firstWriteApproved), processStartedAt, -1),
    ]);
    const reply = harness.runHook('command', body, { allTools: true, processStartedAt });
    const card = await phone().next((record) => record.sessionId === body.session_id, 20_000);
    expect(await polls.tick()).toBe(1);
    await phone().respond(card.requestId, { action: 'accept' });
    expect((await reply).reply).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'allow', updatedInput: hookCalls.writeApproved.payload.tool_input },
      },
    });
    expect(await withdrawnReason(card.requestId)).toBeUndefined();
  });
});

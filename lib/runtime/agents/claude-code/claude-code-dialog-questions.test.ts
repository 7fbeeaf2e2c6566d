import { randomUUID } from 'node:crypto';
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../../host/test-support/test-host';
import { claudeCodeHookHarness, type Via } from './test-support/claude-code-hook-harness';
import { questionCalls, questionTranscripts, type CapturedHookCall } from './fixtures';
import { DIALOG_HOOK_TIMEOUT_MS } from './handle-hook';
import { ANSWERED_IN_TERMINAL_REASON } from './terminal-answer';
import { SKIPPED_QUESTION_NOTE } from './to-answer';

// AskUserQuestion through the PermissionRequest hook (R11.8): Claude Code shows its own dialog while the
// hook waits for the phone, and the first answer wins.
const harness = claudeCodeHookHarness();
const phone = () => harness.phone();

const TWO = {
  questions: [
    {
      question: 'Which database?',
      header: 'DB',
      options: [
        { label: 'Postgres', description: 'Relational' },
        { label: 'SQLite, embedded', description: 'One file' },
      ],
      multiSelect: true,
    },
    {
      question: 'Which cache?',
      header: 'Cache',
      options: [
        { label: 'Redis', description: 'In memory' },
        { label: 'None', description: 'No cache' },
      ],
      multiSelect: false,
    },
  ],
};

/** A PermissionRequest as Claude Code 2.1.332 sends it: no tool_use_id, the person's prompt id. */
function dialogPayload(toolInput: Record<string, unknown>) {
  const { tool_use_id: _none, ...body } = harness.payload('PermissionRequest', 'AskUserQuestion', toolInput);
  return { ...body, session_id: `dialog-${randomUUID()}`, prompt_id: randomUUID() };
}

async function ask(via: Via, toolInput: Record<string, unknown>) {
  const body = dialogPayload(toolInput);
  const run = harness.runHook(via, body);
  const question = await phone().next((record) => record.sessionId === body.session_id, 20_000);
  return { question, run, body };
}

describe.each<Via>(['command', 'http'])('AskUserQuestion beside Claude Code’s dialog (%s hook)', (via) => {
  it('[R11.8][R11.10] the card says the terminal shows it too; the phone’s answer echoes the questions with the answers', async () => {
    const { question, run } = await ask(via, TWO);
    expect(question).toMatchObject({
      kind: 'question',
      inputRules: 'claude-code',
      agent: { kind: 'claude-code' },
      context: { openInTerminal: true },
    });
    await phone().respond(question.requestId, {
      action: 'accept',
      content: {
        answers: { 'Which database?': 'Postgres, SQLite, embedded', 'Which cache?': 'Redis' },
        annotations: { 'Which cache?': { notes: 'keep it small' } },
      },
    });
    expect((await run).reply).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: {
          behavior: 'allow',
          updatedInput: {
            ...TWO,
            // Multi-select joined as Claude Code joins it: a label with ", " quoted.
            answers: { 'Which database?': 'Postgres, "SQLite, embedded"', 'Which cache?': 'Redis' },
            annotations: { 'Which cache?': { notes: 'keep it small' } },
          },
        },
      },
    });
  });

  it('[R11.8][R4.4] a skipped question carries a note that a skip is not a rejection; every question skipped too', async () => {
    const partial = await ask(via, TWO);
    await phone().respond(partial.question.requestId, {
      action: 'accept',
      content: { answers: { 'Which cache?': 'None' } },
    });
    expect((await partial.run).reply).toMatchObject({
      hookSpecificOutput: {
        decision: {
          updatedInput: {
            answers: { 'Which cache?': 'None' },
            annotations: { 'Which database?': { notes: SKIPPED_QUESTION_NOTE } },
          },
        },
      },
    });
    const none = await ask(via, TWO);
    await phone().respond(none.question.requestId, { action: 'accept', content: { answers: {} } });
    expect((await none.run).reply).toMatchObject({
      hookSpecificOutput: {
        decision: {
          behavior: 'allow',
          updatedInput: {
            questions: TWO.questions,
            answers: {},
            annotations: {
              'Which database?': { notes: SKIPPED_QUESTION_NOTE },
              'Which cache?': { notes: SKIPPED_QUESTION_NOTE },
            },
          },
        },
      },
    });
  });

  it('[R11.8][R3.7] a decline is a deny whose message the model reads as it is', async () => {
    const { question, run } = await ask(via, TWO);
    await phone().respond(question.requestId, { action: 'decline', message: 'Ask me after the release' });
    expect((await run).reply).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'AskUserQuestion was declined: Ask me after the release' },
      },
    });
  });

  it('[R11.8] the phone’s time running out leaves the question to the dialog: no opinion', async () => {
    const { question, run } = await ask(via, TWO);
    // A day, less a minute: the dialog outlives the hook, so the card lives as long as the question.
    expect(harness.deadlines.pending()).toContain(DIALOG_HOOK_TIMEOUT_MS);
    expect(DIALOG_HOOK_TIMEOUT_MS).toBe(86_340_000);
    expect(harness.deadlines.expire(DIALOG_HOOK_TIMEOUT_MS)).toBe(1);
    expect((await run).reply).toEqual({});
    const withdrawn = (await harness.host().registry.readSince(0, 100_000)).find(
      (event) => event.type === 'interaction.withdrawn' && event.requestId === question.requestId,
    );
    expect(withdrawn).toMatchObject({ reason: 'No answer in time: the question is still open in the terminal' });
  });
});

describe.each<Via>(['command', 'http'])('AskUserQuestion answered in the terminal first (%s hook)', (via) => {
  /** The captured call in a session of its own, its transcript holding what Claude Code had logged before. */
  function session(call: CapturedHookCall, lines: readonly string[]) {
    const transcript = path.join(tempDir('askaway-dialog-'), 'session.jsonl');
    writeFileSync(transcript, lines.map((line) => `${line}\n`).join(''));
    return {
      transcript,
      body: { ...call.payload, session_id: `terminal-${randomUUID()}`, transcript_path: transcript },
    };
  }
  const logNow = (transcript: string, line: string) =>
    appendFileSync(transcript, `${JSON.stringify({ ...JSON.parse(line), timestamp: new Date().toISOString() })}\n`);
  const withdrawal = async (requestId: string) =>
    (await harness.host().registry.readSince(0, 100_000)).find(
      (event) => event.type === 'interaction.withdrawn' && event.requestId === requestId,
    );

  it('[R11.9][R18.6] the card leaves as answered in the terminal, with what was chosen; a late phone answer is refused', async () => {
    const lines = questionTranscripts.multiSelectAnswered;
    const result = lines.findIndex((line) => line.includes('"tool_result"'));
    const { transcript, body } = session(questionCalls.multiSelectAnswered, lines.slice(0, result));
    const reply = harness.runHook(via, body);
    const card = await phone().next((record) => record.sessionId === body.session_id, 20_000);
    logNow(transcript, lines[result] ?? '');
    expect(await harness.polls.tick()).toBe(1);
    expect((await reply).reply).toEqual({});
    await vi.waitFor(async () =>
      expect(await withdrawal(card.requestId)).toMatchObject({
        reason: ANSWERED_IN_TERMINAL_REASON,
        terminalAnswer: {
          response: {
            action: 'accept',
            content: {
              answers: { 'Which stores should we support?': 'Postgres, "SQLite, embedded", "Redis \\"fast\\""' },
            },
          },
        },
      }),
    );
    const late = await phone().respond(card.requestId, { action: 'accept', content: { answers: {} } });
    expect(late).toMatchObject({ ok: false, error: { code: 'withdrawn' } });
  });

  it('[R11.9] "Chat about this" in the terminal leaves the card as declined there', async () => {
    const lines = questionTranscripts.chatAboutThis;
    const result = lines.findIndex((line) => line.includes('"tool_result"'));
    const { transcript, body } = session(questionCalls.chatAboutThis, lines.slice(0, result));
    const reply = harness.runHook(via, body);
    const card = await phone().next((record) => record.sessionId === body.session_id, 20_000);
    logNow(transcript, lines[result] ?? '');
    expect(await harness.polls.tick()).toBe(1);
    expect((await reply).reply).toEqual({});
    await vi.waitFor(async () =>
      expect(await withdrawal(card.requestId)).toMatchObject({ terminalAnswer: { response: { action: 'decline' } } }),
    );
  });
});

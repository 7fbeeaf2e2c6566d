import { describe, expect, it } from 'vitest';
import { NO_ANSWERS_TEXT } from '../../../core';
import { claudeCodeHookHarness } from './test-support/claude-code-hook-harness';

const harness = claudeCodeHookHarness();
const { payload } = harness;
const phone = () => harness.phone();

/** Asks through the hook and returns the question as the phone sees it, and the pending reply. */
async function ask(toolInput: Record<string, unknown>) {
  const body = payload('PreToolUse', 'AskUserQuestion', toolInput);
  const run = harness.runHook('command', body);
  const question = await phone().next((record) => record.toolUseId === body.tool_use_id, 20_000);
  return { question, run };
}

/** What Claude Code's own checks accept but Askaway's strict MCP contract refuses. */
const LENIENT = {
  questions: [
    {
      question: 'Which deployment target fits this service best?',
      header: 'Deployment target',
      options: [
        { label: 'Fly.io', description: '' },
        { label: 'Render', description: 'Managed, simple' },
        { label: 'Other', description: 'Something else entirely' },
      ],
      multiSelect: false,
    },
  ],
};

describe('Claude Code hook: questions Claude Code accepts', () => {
  it('[R11.5][R9.5] a long header, an empty description and an "Other" option reach the phone as sent', async () => {
    const { question, run } = await ask(LENIENT);
    expect(question).toMatchObject({ kind: 'question', inputRules: 'claude-code', input: LENIENT });
    await phone().respond(question.requestId, {
      action: 'accept',
      content: { answers: { 'Which deployment target fits this service best?': 'Other' } },
    });
    // The answer is exactly the label: Claude Code reads it as the chosen option.
    expect((await run).reply).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        permissionDecisionReason: 'Answered in Askaway',
        updatedInput: { ...LENIENT, answers: { 'Which deployment target fits this service best?': 'Other' } },
      },
    });
  });

  it('[R11.5] extended kinds: a title, a text and a number question, answered from the phone', async () => {
    const extended = {
      title: 'Before I build your deck',
      questions: [
        {
          question: 'What is the talk about?',
          header: 'Topic',
          kind: 'text',
          description: 'One sentence is enough.',
          placeholder: 'e.g. Our Q3 roadmap',
        },
        {
          question: 'How many slides?',
          header: 'Length',
          kind: 'number',
          min: 5,
          max: 30,
          step: 1,
          defaultValue: 12,
          unit: 'slides',
        },
        {
          question: 'Which theme?',
          header: 'Theme',
          kind: 'choice',
          options: [{ label: 'Light' }, { label: 'Dark', description: 'High contrast' }],
          multiSelect: false,
        },
      ],
    };
    const { question, run } = await ask(extended);
    expect(question).toMatchObject({ kind: 'question', inputRules: 'claude-code', input: { title: extended.title } });
    const answers = {
      'What is the talk about?': 'Askaway on a phone',
      'How many slides?': '12',
      'Which theme?': 'Dark',
    };
    await phone().respond(question.requestId, { action: 'accept', content: { answers } });
    expect((await run).reply).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { ...extended, answers } },
    });
  });

  it('[R11.5][R10.4] a number answer outside min..max is refused by the host and changes nothing', async () => {
    const { question, run } = await ask({
      questions: [{ question: 'How many replicas?', header: 'Replicas', kind: 'number', min: 1, max: 5 }],
    });
    const refused = await phone().respond(question.requestId, {
      action: 'accept',
      content: { answers: { 'How many replicas?': '9' } },
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid-response' } });
    expect(JSON.stringify(refused)).toContain('between 1 and 5');
    await phone().respond(question.requestId, {
      action: 'accept',
      content: { answers: { 'How many replicas?': '3' } },
    });
    expect((await run).reply).toMatchObject({
      hookSpecificOutput: { updatedInput: { answers: { 'How many replicas?': '3' } } },
    });
  });

  it('[R11.5] a question kind Askaway cannot show goes back to the terminal, with a log line saying why', async () => {
    const body = payload('PreToolUse', 'AskUserQuestion', {
      questions: [{ question: 'When should it ship?', header: 'Date', kind: 'date' }],
    });
    const { reply, stderr } = await harness.runHook('command', body);
    expect(reply).toMatchObject({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask' } });
    expect(reply).toMatchObject({
      hookSpecificOutput: {
        permissionDecisionReason: expect.stringContaining('questions[0].kind: Invalid option') as unknown,
      },
    });
    expect(stderr).toContain(
      'askaway hook: Invalid question input for AskUserQuestion: questions[0].kind: Invalid option: ' +
        'expected one of "choice"|"text"|"number" (the terminal asks instead)',
    );
  });
});

describe('Claude Code hook: multi-select answers as Claude Code joins them', () => {
  const labels = ['Tokyo, Japan', 'The "new" one', 'Plain', 'Both, "quoted"'];
  const multi = {
    questions: [
      {
        question: 'Which regions?',
        header: 'Regions',
        options: labels.map((label) => ({ label, description: '' })),
        multiSelect: true,
      },
    ],
  };

  it.each([
    ['a comma', ['Tokyo, Japan', 'Plain'], '"Tokyo, Japan", Plain'],
    ['a quote', ['The "new" one', 'Plain'], '"The \\"new\\" one", Plain'],
    ['both', ['Plain', 'Both, "quoted"'], 'Plain, "Both, \\"quoted\\""'],
    ['a comma, alone', ['Tokyo, Japan'], '"Tokyo, Japan"'],
    ['none of them', ['Plain'], 'Plain'],
  ])('[R2.9][R11.5] labels with %s are quoted as Claude Code quotes them', async (_case, chosen, expected) => {
    const { question, run } = await ask(multi);
    // A remote that joins the plain way gets the answer rewritten; the phone sends Claude Code's form already.
    await phone().respond(question.requestId, {
      action: 'accept',
      content: { answers: { 'Which regions?': chosen.join(', ') } },
    });
    expect((await run).reply).toMatchObject({
      hookSpecificOutput: { updatedInput: { answers: { 'Which regions?': expected } } },
    });
  });

  it('[R2.9][R11.5] an answer already in Claude Code form, or typed text, is passed on unchanged', async () => {
    for (const answer of ['"Tokyo, Japan", "The \\"new\\" one"', 'Somewhere warm, please']) {
      const { question, run } = await ask(multi);
      await phone().respond(question.requestId, {
        action: 'accept',
        content: { answers: { 'Which regions?': answer } },
      });
      expect((await run).reply).toMatchObject({
        hookSpecificOutput: { updatedInput: { answers: { 'Which regions?': answer } } },
      });
    }
  });
});

describe('Claude Code hook: what the model reads when questions are skipped', () => {
  const two = {
    questions: [
      {
        question: 'Which database?',
        header: 'DB',
        options: [
          { label: 'Postgres', description: 'Relational' },
          { label: 'SQLite', description: 'Embedded' },
        ],
        multiSelect: false,
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

  it('[R4.4][R11.5] skipping everything allows with answers {} and tells the model it is not a rejection', async () => {
    const { question, run } = await ask(two);
    await phone().respond(question.requestId, { action: 'accept', content: { answers: {} } });
    expect((await run).reply).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        permissionDecisionReason: 'Answered in Askaway',
        updatedInput: { ...two, answers: {} },
        additionalContext: NO_ANSWERS_TEXT,
      },
    });
  });

  it('[R4.4][R11.5] a partial answer names the skipped question for the model', async () => {
    const { question, run } = await ask(two);
    await phone().respond(question.requestId, {
      action: 'accept',
      content: { answers: { 'Which database?': 'Postgres' } },
    });
    expect((await run).reply).toMatchObject({
      hookSpecificOutput: {
        permissionDecision: 'allow',
        updatedInput: { answers: { 'Which database?': 'Postgres' } },
        additionalContext:
          'The user skipped 1 of your 2 questions: "Which cache?". Use your best judgment for those; ' +
          'skipping is not a rejection, and do not invent user preferences.',
      },
    });
  });

  it('[R3.7][R11.2] a decline stays a deny whose reason is what the model reads', async () => {
    const { question, run } = await ask(two);
    await phone().respond(question.requestId, { action: 'decline', message: 'Ask me after the release' });
    expect((await run).reply).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'AskUserQuestion was declined: Ask me after the release',
      },
    });
  });
});

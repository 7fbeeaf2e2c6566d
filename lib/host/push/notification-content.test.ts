import { describe, expect, it } from 'vitest';
import { PUSH_BODY_MAX, PushShowPayloadSchema, type InteractionView } from '../../contracts';
import { clip, interactionPayload, severalAgents, ntfyText, summaryPayload } from './notification-content';

const base = {
  requestId: 'r1',
  machine: { id: 'local', name: 'workstation' },
  sessionId: 's',
  createdAt: '2026-01-01T10:00:00.000Z',
  status: 'pending',
  autoResolution: { status: 'disabled' },
} as const;

describe('notification content', () => {
  it('[R14.2] a plan approval shows its first lines; a permission prompt names the tool and its command', () => {
    const plan: InteractionView = {
      ...base,
      kind: 'plan-approval',
      toolName: 'ExitPlanMode',
      input: { plan: '# Plan\n\n1. Migrate\n2. Deploy\n3. Verify\n4. Celebrate' },
    };
    expect(interactionPayload(plan)).toMatchObject({ title: 'Plan approval', body: 'Plan\n1. Migrate\n2. Deploy' });
    const permission: InteractionView = {
      ...base,
      kind: 'permission',
      toolName: 'Bash',
      input: { command: 'rm -rf build' },
    };
    expect(interactionPayload(permission)).toMatchObject({ title: 'Allow Bash?', body: 'rm -rf build' });
  });

  it('[R11.2][R14.2] a plan approval without plan text says so instead of an empty body', () => {
    const plan: InteractionView = { ...base, kind: 'plan-approval', toolName: 'ExitPlanMode', input: {} };
    expect(interactionPayload(plan)).toMatchObject({
      title: 'Plan approval',
      body: 'Claude Code did not include the plan text',
    });
  });

  it('[R11.5][R14.2] a Claude Code question with an empty header is titled "Question"', () => {
    const view: InteractionView = {
      ...base,
      kind: 'question',
      inputRules: 'claude-code',
      toolName: 'AskUserQuestion',
      input: {
        questions: [{ question: 'What is it about?', header: '', kind: 'text', options: [], multiSelect: false }],
      },
    };
    expect(interactionPayload(view)).toMatchObject({ title: 'Question', body: 'What is it about?' });
  });

  it('[R14.2] several questions say how many more; the project name joins the title', () => {
    const view: InteractionView = {
      ...base,
      kind: 'question',
      toolName: 'AskUserQuestion',
      context: { projectName: 'shop' },
      input: {
        questions: ['A?', 'B?', 'C?'].map((question) => ({
          question,
          header: 'Topic',
          multiSelect: false,
          options: [
            { label: 'x', description: 'x' },
            { label: 'y', description: 'y' },
          ],
        })),
      },
    };
    expect(interactionPayload(view)).toMatchObject({ title: 'Topic · shop', body: 'A?\n+2 more questions' });
  });

  it('[R17.3] a joined machine question says which machine asked; the hub own do not', () => {
    const view: InteractionView = {
      ...base,
      requestId: '0123456789abcdef:r1',
      machine: { id: '0123456789abcdef', name: 'laptop' },
      kind: 'permission',
      toolName: 'Bash',
      input: { command: 'npm test' },
    };
    expect(interactionPayload(view).body).toBe('npm test\nOn laptop');
    expect(interactionPayload(view).tag).toBe('0123456789abcdef:r1');
    const subagent = { ...view, origin: { kind: 'subagent' as const, label: 'db', path: ['db'], depth: 1 } };
    expect(interactionPayload(subagent).body).toBe('npm test\nAsked by subagent db on laptop');
  });

  it('[R18.1] with several agents on record the text names the agent that asked; with one it does not', () => {
    const codex: InteractionView = {
      ...base,
      agent: { kind: 'codex', name: 'Codex', version: '0.171.0' },
      kind: 'permission',
      toolName: 'Bash',
      input: { command: 'npm test' },
    };
    const claude: InteractionView = { ...codex, requestId: 'r2', agent: undefined };
    expect(severalAgents([codex, { ...codex, requestId: 'r3' }])).toBe(false);
    expect(severalAgents([codex, claude])).toBe(true);
    expect(interactionPayload(codex).body).toBe('npm test');
    expect(interactionPayload(codex, true).body).toBe('npm test\nAsked by Codex');
    const away = { ...codex, machine: { id: '0123456789abcdef', name: 'laptop' } };
    expect(interactionPayload(away, true).body).toBe('npm test\nAsked by Codex on laptop');
    const subagent = { ...away, origin: { kind: 'subagent' as const, label: 'db', path: ['db'], depth: 1 } };
    expect(interactionPayload(subagent, true).body).toBe('npm test\nAsked by subagent db of Codex on laptop');
  });

  it('[R14.2] long text is clipped to what a push may carry, never inside a surrogate pair', () => {
    const long = `${'x'.repeat(PUSH_BODY_MAX - 2)}😀😀😀`;
    const clipped = clip(long, PUSH_BODY_MAX);
    expect(clipped.length).toBeLessThanOrEqual(PUSH_BODY_MAX);
    expect(clipped.endsWith('…')).toBe(true);
    expect(clipped).not.toMatch(/[\uD800-\uDBFF]…$/);
    const view: InteractionView = { ...base, kind: 'permission', toolName: 'Bash', input: { command: long } };
    expect(PushShowPayloadSchema.safeParse(interactionPayload(view)).success).toBe(true);
  });

  it('[R14.6] ntfy gets the deadline as text, since it cannot format it on the phone', () => {
    const text = ntfyText({
      ...interactionPayload({ ...base, kind: 'permission', toolName: 'Bash', input: {} }),
      deadlineAt: '2026-01-01T10:10:00.000Z',
    });
    expect(text.body).toMatch(/continues on its own at/);
  });
});

describe('notification answers (R14.8, R14.9)', () => {
  const approval = (choices: { id: string; label: string; effect: string }[]): InteractionView =>
    ({
      ...base,
      kind: 'approval',
      toolName: 'exec',
      agent: { kind: 'codex', name: 'Codex' },
      input: { subject: 'command', command: 'npm test', choices },
    }) as InteractionView;

  it("[R14.8] an approval's buttons are its own choices, first way to allow and Deny first, never the cancel", () => {
    const payload = interactionPayload(
      approval([
        { id: 'approved', label: 'Yes, run it', effect: 'allow' },
        { id: 'approved_for_session', label: 'Yes, for this session', effect: 'allow-session' },
        { id: 'denied', label: 'No, do not run', effect: 'deny' },
        { id: 'abort', label: 'Stop the turn', effect: 'cancel' },
      ]),
    );
    expect(payload.data).toMatchObject({ agent: 'Codex', fit: 'first' });
    expect(payload.data.answers).toEqual([
      { title: 'Yes, run it', outcome: 'allowed', response: { action: 'accept', content: { choice: 'approved' } } },
      { title: 'No, do not run', outcome: 'denied', response: { action: 'decline' } },
      {
        title: 'Yes, for this session',
        outcome: 'allowed',
        response: { action: 'accept', content: { choice: 'approved_for_session' } },
      },
    ]);
    expect(PushShowPayloadSchema.safeParse(payload).success).toBe(true);
  });

  it('[R14.8] a tool permission gets Allow and Deny, Deny with no reason', () => {
    const permission: InteractionView = { ...base, kind: 'permission', toolName: 'Bash', input: { command: 'ls' } };
    expect(interactionPayload(permission).data.answers).toEqual([
      { title: 'Allow', outcome: 'allowed', response: { action: 'accept' }, appLabel: 'allow' },
      { title: 'Deny', outcome: 'denied', response: { action: 'decline' }, appLabel: 'deny' },
    ]);
  });

  const question = (overrides: Record<string, unknown> = {}, more = 0): InteractionView =>
    ({
      ...base,
      kind: 'question',
      toolName: 'AskUserQuestion',
      input: {
        questions: Array.from({ length: 1 + more }, (_, index) => ({
          question: `Which database${index}?`,
          header: 'Database',
          multiSelect: false,
          options: [
            { label: 'Postgres', description: 'Relational' },
            { label: 'SQLite', description: 'One file' },
          ],
          ...overrides,
        })),
      },
    }) as InteractionView;

  it("[R14.9] one single-select question: one button per option, answering exactly that option's label", () => {
    const payload = interactionPayload(question());
    expect(payload.data.fit).toBe('all');
    expect(payload.data.answers?.map((answer) => [answer.title, answer.response])).toEqual([
      ['Postgres', { action: 'accept', content: { answers: { 'Which database0?': 'Postgres' } } }],
      ['SQLite', { action: 'accept', content: { answers: { 'Which database0?': 'SQLite' } } }],
    ]);
  });

  it.each([
    ['several questions', question({}, 1)],
    ['a multi-select question', question({ multiSelect: true })],
    [
      'an option with a preview to read',
      question({
        options: [
          { label: 'A', description: 'a', preview: 'x' },
          { label: 'B', description: 'b' },
        ],
      }),
    ],
    ['a plan approval', { ...base, kind: 'plan-approval', toolName: 'ExitPlanMode', input: { plan: 'Do it' } }],
  ] as [string, InteractionView][])('[R14.9] %s gets no answer buttons', (_name, view) => {
    expect(interactionPayload(view).data.answers).toBeUndefined();
  });

  it('[R14.9][R14.12] a typed or secret answer gets no buttons, and a secret prompt shows none of its text', () => {
    const secret: InteractionView = {
      ...base,
      kind: 'question',
      inputRules: 'agent',
      toolName: 'request_user_input',
      input: {
        questions: [
          {
            question: 'Paste the staging API key',
            header: 'API key',
            kind: 'text',
            secret: true,
            options: [],
            multiSelect: false,
          },
        ],
      },
    } as InteractionView;
    const payload = interactionPayload(secret);
    expect(payload.data.answers).toBeUndefined();
    expect(`${payload.title} ${payload.body}`).not.toContain('API key');
    expect(`${payload.title} ${payload.body}`).not.toContain('staging');
  });

  it('[R14.8] a payload that would pass the size push services take goes without buttons', () => {
    const long = 'x'.repeat(1_500);
    const view = question({
      question: long,
      options: [
        { label: 'Postgres', description: 'Relational' },
        { label: 'SQLite', description: 'One file' },
      ],
    });
    expect(interactionPayload(view).data.answers).toBeUndefined();
  });

  it('[R14.12] a burst summary carries no answer buttons', () => {
    expect(summaryPayload([question(), question()], new Date()).data.answers).toBeUndefined();
  });
});

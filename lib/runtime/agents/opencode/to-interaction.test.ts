import { describe, expect, it } from 'vitest';
import { InteractionRequestSchema } from '../../../contracts';
import {
  CHILD_SESSION,
  childSession,
  EDIT_DIFF,
  NEW_FILE_DIFF,
  permissionAsked,
  questionAsked,
  SESSION,
  topSession,
} from './fixtures';
import {
  ALWAYS_DETAIL,
  PERMISSION_DENY_DETAIL,
  permissionInteraction,
  QUESTION_DECLINE_NOTE,
  questionInteraction,
  toApprovalInput,
  toQuestionInput,
} from './to-interaction';

const where = { directory: '/home/ada/shop', chain: [topSession], version: '1.18.33' };

/** Problems the host would find in it: the announced request checked against the contract, or none. */
function problems(request: ReturnType<typeof questionInteraction>): string[] {
  const parsed = InteractionRequestSchema.safeParse({
    ...request,
    protocolRequestId: 'p-1',
    createdAt: new Date().toISOString(),
  });
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('[R18.20][R18.23] OpenCode questions as interactions', () => {
  it('[R18.20] a question.asked becomes an agent question of agent opencode, with its tool call, directory and session title', () => {
    const request = questionInteraction(questionAsked(), where);
    expect(request).toMatchObject({
      kind: 'question',
      inputRules: 'agent',
      requestId: 'opencode-que_2309dfd01001aQEsFqqjXdJZik',
      sessionId: SESSION,
      toolName: 'question',
      toolUseId: 'call_single',
      agent: { kind: 'opencode', name: 'OpenCode', version: '1.18.33' },
      origin: { kind: 'root', depth: 0, sessionId: SESSION },
      context: { cwd: '/home/ada/shop', sessionTitle: 'Set up the shop', declineNote: QUESTION_DECLINE_NOTE },
      input: {
        questions: [
          {
            question: 'Which database?',
            header: 'Database',
            multiSelect: false,
            options: [
              { label: 'Postgres', description: 'Server DB' },
              { label: 'SQLite', description: 'File DB' },
            ],
          },
        ],
      },
    });
    expect(problems(request)).toEqual([]);
  });

  it('[R18.23] multiple becomes multiSelect; custom: false takes no typed answer', () => {
    const input = toQuestionInput(
      questionAsked({
        questions: [
          {
            question: 'Which areas?',
            header: 'Areas',
            multiple: true,
            options: [
              { label: 'Auth', description: '' },
              { label: 'Billing', description: 'b' },
            ],
          },
          {
            question: 'Leave plan mode?',
            header: 'Plan',
            custom: false,
            options: [
              { label: 'Yes', description: '' },
              { label: 'No', description: '' },
            ],
          },
        ],
      }),
    );
    expect(input.questions[0]).toMatchObject({
      multiSelect: true,
      options: [{ label: 'Auth' }, { label: 'Billing', description: 'b' }],
    });
    expect(input.questions[0]?.options[0]).not.toHaveProperty('description');
    expect(input.questions[1]).toMatchObject({ allowOther: false });
  });

  it('[R18.23] a question with no, one or more than four options is a typed answer that lists them', () => {
    const labels = ['A', 'B', 'C', 'D', 'E'].map((label) => ({ label, description: `use ${label}` }));
    const input = toQuestionInput(
      questionAsked({
        questions: [
          { question: 'Which letter?', header: 'Letter', options: labels },
          { question: 'Your name?', header: 'Name', options: [] },
          { question: 'Only one?', header: 'One', multiple: true, options: [{ label: 'Solo', description: '' }] },
        ],
      }),
    );
    expect(input.questions[0]).toMatchObject({
      kind: 'text',
      options: [],
      description: expect.stringContaining('A (use A); B (use B)'),
    });
    expect(input.questions[1]).toEqual({
      question: 'Your name?',
      header: 'Name',
      kind: 'text',
      options: [],
      multiSelect: false,
    });
    expect(input.questions[2]?.description).toContain('Several may be given');
    const fallback = questionAsked({ questions: [{ question: 'Which letter?', header: 'L', options: labels }] });
    expect(problems(questionInteraction(fallback, where))).toEqual([]);
  });

  it('[R18.23] texts past the card limits are shortened, and still go back by position', () => {
    const long = 'x'.repeat(3_000);
    const [question] = toQuestionInput(
      questionAsked({
        questions: [
          {
            question: long,
            header: 'h'.repeat(400),
            options: [
              { label: 'A', description: long },
              { label: 'B', description: '' },
            ],
          },
        ],
      }),
    ).questions;
    expect(question?.question).toHaveLength(2_000);
    expect(question?.header).toHaveLength(200);
    expect(question?.options[0]?.description).toHaveLength(2_000);
  });

  it('[R18.22] a subagent asks in its top session, named after itself and its parent', () => {
    const request = questionInteraction(questionAsked({ sessionID: CHILD_SESSION }), {
      ...where,
      chain: [childSession, topSession],
    });
    expect(request.sessionId).toBe(SESSION);
    expect(request.origin).toEqual({
      kind: 'subagent',
      label: 'run sub (@general subagent)',
      path: ['general'],
      depth: 1,
      sessionId: CHILD_SESSION,
      parentSessionId: SESSION,
      agentType: 'general',
    });
    expect(request.context?.sessionTitle).toBe('Set up the shop');
  });

  it('[R18.22] without session details (the lookup failed) the asking session stands alone', () => {
    const request = questionInteraction(questionAsked(), { directory: '/w', chain: [] });
    expect(request).toMatchObject({
      sessionId: SESSION,
      origin: { kind: 'root', label: 'OpenCode', sessionId: SESSION },
    });
    expect(request.agent).toEqual({ kind: 'opencode', name: 'OpenCode' });
  });
});

describe('[R18.24] OpenCode permissions as approvals', () => {
  it('[R18.24] bash: the command, its directory, OpenCode patterns as scope, and its three choices', () => {
    const request = permissionInteraction(permissionAsked(), where);
    expect(request).toMatchObject({
      kind: 'approval',
      toolName: 'bash',
      toolUseId: 'call_once',
      requestId: 'opencode-per_2309eec49001KT6V00Q1w6x8xd',
    });
    expect(request.input).toEqual({
      subject: 'command',
      command: 'echo hi-once',
      cwd: '/home/ada/shop',
      scope: ['echo hi-once'],
      choices: [
        { id: 'once', label: 'Allow once', effect: 'allow' },
        { id: 'always', label: 'Always allow', effect: 'allow-always', detail: `${ALWAYS_DETAIL}echo *` },
        { id: 'reject', label: 'Deny', effect: 'deny', detail: PERMISSION_DENY_DETAIL },
      ],
    });
    expect(problems(request)).toEqual([]);
  });

  it('[R18.24] edit: the file and its diff, a new file as added', () => {
    const edit = toApprovalInput(
      permissionAsked({
        permission: 'edit',
        patterns: ['notes.txt'],
        metadata: { filepath: '/home/ada/shop/notes.txt', diff: EDIT_DIFF },
        always: ['*'],
      }),
      '/home/ada/shop',
    );
    expect(edit).toMatchObject({
      subject: 'file-change',
      changes: [{ path: '/home/ada/shop/notes.txt', kind: 'update', diff: EDIT_DIFF }],
    });
    const write = toApprovalInput(
      permissionAsked({ permission: 'edit', metadata: { filepath: '/home/ada/shop/new.txt', diff: NEW_FILE_DIFF } }),
      '/w',
    );
    expect(write.changes?.[0]?.kind).toBe('add');
    const huge = toApprovalInput(
      permissionAsked({
        permission: 'edit',
        metadata: { filepath: '/a', diff: `@@ -1 +1 @@\n${'+x\n'.repeat(30_000)}` },
      }),
      '/w',
    );
    expect(huge.changes?.[0]).toMatchObject({ truncated: true });
    expect(huge.changes?.[0]?.diff).toHaveLength(60_000);
  });

  it('[R18.24] any other permission is a tool approval; no "always" suggestion, no Always allow', () => {
    const input = toApprovalInput(
      permissionAsked({
        permission: 'webfetch',
        patterns: ['https://example.com'],
        metadata: { url: 'https://example.com' },
        always: [],
      }),
      '/w',
    );
    expect(input).toMatchObject({
      subject: 'tool',
      tool: { name: 'webfetch', input: expect.stringContaining('example.com') },
    });
    expect(input.choices.map((choice) => choice.id)).toEqual(['once', 'reject']);
    expect(toApprovalInput(permissionAsked({ permission: 'external_directory', metadata: {} }), '/w').subject).toBe(
      'permissions',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { InteractionRequestSchema } from '../../../contracts';
import {
  commandApprovalParams,
  elicitationFormParams,
  elicitationUrlParams,
  fileChangeApprovalParams,
  fileChangeItemStarted,
  mcpToolApprovalParams,
  permissionsApprovalParams,
  requestUserInputParams,
  THREAD_ID,
} from './test-fixtures';
import { CODEX_PROMPT_METHODS } from './protocol';
import { fileChangesOf, NONE_OF_THE_ABOVE, toCodexPrompt, type CodexPrompt } from './to-interaction';

const thread = { cwd: '/work/project', title: 'Set up the widget', agentMessage: 'I need a few choices from you.' };

function prompt(method: string, params: unknown, options?: Parameters<typeof toCodexPrompt>[3]): CodexPrompt {
  const result = toCodexPrompt(method, params, thread, options);
  if ('unsupported' in result) throw new Error(result.unsupported);
  return result;
}

/** The interaction as the broker announces it: it must pass the contract the host checks. */
function announced(result: CodexPrompt) {
  return InteractionRequestSchema.parse({
    ...result.interaction,
    requestId: 'codex-x',
    protocolRequestId: 'codex-x',
    sessionId: THREAD_ID,
    agent: { kind: 'codex', name: 'Codex' },
    createdAt: new Date(0).toISOString(),
  });
}

describe('[R18.11] Codex questions on the phone', () => {
  it('[R18.11] a request_user_input becomes an agent-rules question: labels as Codex sent them, the secret one masked', () => {
    const result = prompt(CODEX_PROMPT_METHODS.question, requestUserInputParams);
    const request = announced(result);
    expect(request).toMatchObject({ kind: 'question', inputRules: 'agent', toolName: 'request_user_input' });
    expect(request.toolUseId).toBe('call_LABQ1_t0_1');
    expect(result.interaction.input).toEqual({
      questions: [
        {
          question: 'Which color?',
          header: 'Color',
          options: [
            { label: 'Red (Recommended)', description: 'Warm.' },
            { label: 'Blue', description: 'Cool.' },
          ],
          multiSelect: false,
        },
        {
          question: 'Which size?',
          header: 'Size',
          options: [
            { label: 'Small', description: 'Fits.' },
            { label: 'Large', description: 'Roomy.' },
          ],
          multiSelect: false,
        },
        {
          question: 'Paste a token?',
          header: 'Token',
          options: [
            { label: 'No token', description: 'Skip it.' },
            { label: 'Later', description: 'Ask again.' },
          ],
          multiSelect: false,
          secret: true,
        },
      ],
    });
    expect(result.interaction.context).toEqual({
      agentMessage: 'I need a few choices from you.',
      cwd: '/work/project',
      projectName: 'project',
      sessionTitle: 'Set up the widget',
    });
    expect(result).toMatchObject({ nonBlocking: false, turnId: requestUserInputParams.turnId });
  });

  it('[R18.11] a Default-mode question says on the card that Codex goes on without an answer', () => {
    const result = prompt(
      CODEX_PROMPT_METHODS.question,
      { ...requestUserInputParams, isBlocking: false },
      { askedAt: new Date('2026-12-01T10:00:05Z') },
    );
    expect(result.nonBlocking).toBe(true);
    expect(result.interaction.context).toMatchObject({
      agentMessage:
        'I need a few choices from you.\n\nCodex is not waiting for this answer: about 2 minutes after it asked, it goes on without one.',
      // Codex's own 2 minutes, counted from when the bridge saw it arrive: the card counts down to it.
      agentDeadlineAt: '2026-12-01T10:02:05.000Z',
    });
  });

  it('[R18.11] a Default-mode question re-sent when the bridge joined later has no deadline it could vouch for', () => {
    const result = prompt(CODEX_PROMPT_METHODS.question, { ...requestUserInputParams, isBlocking: false });
    expect(result.interaction.context?.agentDeadlineAt).toBeUndefined();
    expect(result.interaction.context?.agentMessage).toContain('(before Askaway saw it)');
  });

  it('[R18.11] questions that take only their options, free text, one option, or the same text twice', () => {
    const result = prompt(CODEX_PROMPT_METHODS.question, {
      ...requestUserInputParams,
      questions: [
        {
          id: 'a',
          header: 'A',
          question: 'Pick',
          isOther: false,
          isSecret: false,
          options: [
            { label: 'X', description: '' },
            { label: 'Y', description: '' },
          ],
        },
        {
          id: 'b',
          header: 'B',
          question: 'Pick',
          isOther: true,
          isSecret: false,
          options: [{ label: 'Only', description: 'the one' }],
        },
        { id: 'c', header: 'C', question: 'Why?', isOther: true, isSecret: false, options: null },
      ],
    });
    announced(result);
    expect(result.interaction.input).toMatchObject({
      questions: [
        { question: 'Pick', allowOther: false },
        { question: 'Pick (b)', options: [{ label: 'Only' }, { label: NONE_OF_THE_ABOVE }] },
        { question: 'Why?', kind: 'text' },
      ],
    });
    expect(result.plan).toEqual({
      type: 'question',
      questions: [
        { id: 'a', key: 'Pick', labels: ['X', 'Y'], isOther: false, freeform: false },
        { id: 'b', key: 'Pick (b)', labels: ['Only', NONE_OF_THE_ABOVE], isOther: true, freeform: false },
        { id: 'c', key: 'Why?', labels: [], isOther: true, freeform: true },
      ],
    });
  });

  it('[R18.11] a request the phone cannot show stays with the terminal, with the reason', () => {
    expect(toCodexPrompt(CODEX_PROMPT_METHODS.question, { threadId: 'x' }, {})).toMatchObject({
      unsupported: expect.stringContaining('request_user_input'),
    });
    expect(toCodexPrompt('item/tool/call', {}, {})).toEqual({
      unsupported: "Codex's item/tool/call is not carried to the phone",
    });
  });
});

describe('[R18.12] Codex approvals and forms on the phone', () => {
  it('[R18.12] a command approval offers exactly the decisions Codex lists, plus decline', () => {
    const result = prompt(CODEX_PROMPT_METHODS.command, commandApprovalParams);
    announced(result);
    expect(result.interaction).toMatchObject({
      kind: 'approval',
      toolName: 'exec_command',
      toolUseId: 'call_LABE1_t0_0',
    });
    expect(result.interaction.input).toMatchObject({
      subject: 'command',
      command: "/bin/bash -lc 'touch /work/outside-e1.txt'",
      cwd: '/work/project',
      reason: 'Allow writing outside-e1.txt outside the workspace?',
    });
    const { choices } = result.interaction.input as { choices: { id: string; effect: string }[] };
    expect(choices.map((choice) => [choice.id, choice.effect])).toEqual([
      ['accept', 'allow'],
      ['accept-rule-1', 'allow-always'],
      ['decline', 'deny'],
      ['cancel', 'cancel'],
    ]);
    expect(result.plan).toEqual({
      type: 'command',
      decisions: {
        accept: 'accept',
        'accept-rule-1': { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['touch'] } },
      },
    });
  });

  it('[R18.12] a command approval with acceptForSession and network rules; without availableDecisions, accept and cancel', () => {
    const network = {
      applyNetworkPolicyAmendment: { network_policy_amendment: { host: 'registry.npmjs.org', action: 'allow' } },
    };
    const blocked = {
      applyNetworkPolicyAmendment: { network_policy_amendment: { host: 'evil.example', action: 'deny' } },
    };
    const result = prompt(CODEX_PROMPT_METHODS.command, {
      ...commandApprovalParams,
      availableDecisions: ['accept', 'acceptForSession', network, blocked, 'decline'],
    });
    const ids = (result.interaction.input as { choices: { id: string }[] }).choices.map((choice) => choice.id);
    expect(ids).toEqual(['accept', 'accept-session', 'network-allow-2', 'decline']);
    const plain = prompt(CODEX_PROMPT_METHODS.command, { ...commandApprovalParams, availableDecisions: null });
    expect((plain.interaction.input as { choices: { id: string }[] }).choices.map((choice) => choice.id)).toEqual([
      'accept',
      'decline',
      'cancel',
    ]);
  });

  it('[R18.12] a file change carries the diff Codex announced in item/started', () => {
    const result = prompt(CODEX_PROMPT_METHODS.fileChange, fileChangeApprovalParams, {
      changes: fileChangeItemStarted.item.changes,
    });
    announced(result);
    expect(result.interaction.input).toMatchObject({
      subject: 'file-change',
      changes: [{ path: '/work/project/patch1.txt', kind: 'add', diff: 'hello from patch 1\n' }],
    });
    expect(result.interaction).toMatchObject({ toolName: 'apply_patch', toolUseId: 'call_LABP1_t0_0' });
  });

  it('[R18.12] diffs are cut to fit one message; a move keeps where the file goes', () => {
    const big = 'x'.repeat(70_000);
    const changes = fileChangesOf([
      { path: '/a', kind: { type: 'update', move_path: '/b' }, diff: big },
      { path: '/c', kind: { type: 'update', move_path: null }, diff: big },
      { path: '/d', kind: { type: 'delete' }, diff: big },
    ]);
    expect(changes.map(({ diff, ...rest }) => ({ ...rest, length: diff?.length }))).toEqual([
      { path: '/a', kind: 'move', movePath: '/b', truncated: true, length: 60_000 },
      { path: '/c', kind: 'update', truncated: true, length: 40_000 },
      { path: '/d', kind: 'delete', truncated: true, length: undefined },
    ]);
  });

  it('[R18.12] a permissions request grants exactly what was asked, for the turn or the session', () => {
    const result = prompt(CODEX_PROMPT_METHODS.permissions, permissionsApprovalParams);
    announced(result);
    expect(result.interaction.input).toMatchObject({ subject: 'permissions', scope: ['write /work/cache'] });
    expect(result.plan).toEqual({ type: 'permissions', granted: { fileSystem: { write: ['/work/cache'] } } });
  });

  it("[R18.12] Codex's own MCP tool-call approval is an approval with its persist choices, not a form", () => {
    const result = prompt(CODEX_PROMPT_METHODS.elicitation, mcpToolApprovalParams);
    announced(result);
    expect(result.interaction).toMatchObject({ kind: 'approval', toolName: 'mcp__labelicit__ask_form' });
    expect(result.interaction.input).toMatchObject({
      subject: 'tool',
      tool: { name: 'labelicit: ask_form', input: '{}' },
      reason: 'Allow the labelicit MCP server to run tool "ask_form"?',
    });
    expect(result.plan).toEqual({
      type: 'mcp-tool',
      persist: { allow: null, 'allow-session': 'session', 'allow-always': 'always' },
    });
  });

  it("[R18.12] an MCP form's requestedSchema becomes its fields; a URL elicitation a page to open", () => {
    const form = prompt(CODEX_PROMPT_METHODS.elicitation, elicitationFormParams);
    announced(form);
    expect(form.interaction.input).toEqual({
      serverName: 'labelicit',
      message: 'Pick a color for the widget',
      mode: 'form',
      fields: [
        {
          name: 'color',
          title: 'Color',
          description: 'The widget color',
          required: true,
          type: 'enum',
          multiple: false,
          options: [{ value: 'red' }, { value: 'blue' }],
        },
        { name: 'note', title: 'Note', description: 'Anything else?', required: false, type: 'string' },
      ],
    });
    const url = prompt(CODEX_PROMPT_METHODS.elicitation, elicitationUrlParams);
    announced(url);
    expect(url.interaction.input).toMatchObject({ mode: 'url', url: 'https://example.invalid/authorize' });
    expect(url.plan).toEqual({ type: 'url' });
  });
});

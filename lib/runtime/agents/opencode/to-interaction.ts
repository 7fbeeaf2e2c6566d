// How OpenCode's question and permission requests become Askaway interactions (R18.2: to-interaction).
import {
  AGENT_INPUT_RULES,
  AGENT_NAMES,
  APPROVAL_DIFF_MAX,
  ASK_USER_QUESTION_MAX_OPTIONS,
  ASK_USER_QUESTION_MAX_TEXT,
  ASK_USER_QUESTION_MIN_OPTIONS,
  CLAUDE_CODE_HEADER_MAX,
  ID_MAX,
  type AgentRef,
  type ApprovalChoice,
  type ApprovalInput,
  type ClaudeCodeQuestion,
  type FileChange,
  type InteractionContext,
  type InteractionOrigin,
} from '../../../contracts';
import { type DirectInteractionRequest } from '../../../protocol';
import { type OpenCodePermissionRequest, type OpenCodeQuestionRequest, type OpenCodeSession } from './opencode-shapes';

export const OPENCODE_AGENT: AgentRef = { kind: 'opencode', name: AGENT_NAMES.opencode };
export const QUESTION_TOOL = 'question';

/** On a question's card, beside Decline (R18.23): OpenCode's reject ends the turn. */
export const QUESTION_DECLINE_NOTE =
  'Declining dismisses the question and OpenCode stops this turn: the agent waits for your next message. Skip instead to let it carry on without an answer.';
/** The deny choice's detail (R18.24). */
export const PERMISSION_DENY_DETAIL =
  'With a reason, the agent reads it and carries on; without one, OpenCode stops the turn. Other requests waiting in this session are denied with it.';
/** The always choice's detail (R18.24), before the patterns it adds. */
export const ALWAYS_DETAIL = 'Until OpenCode restarts, for every session of this OpenCode: ';

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The Askaway request id of an OpenCode request: its id (`que_…`, `per_…`) is unique in the process. */
export function requestIdOf(openCodeId: string): string {
  return `opencode-${openCodeId}`.slice(0, ID_MAX);
}

/**
 * One OpenCode question as the lenient agent contract holds it. OpenCode's tool takes any number of
 * options; the card shows 2–4, so another count becomes a typed answer with the options listed (OpenCode
 * takes any text: "Type your own answer" is always there unless `custom: false`). Texts are shortened to
 * the card's limits: answers go back by position, so a shortened question still gets its own answer.
 */
function toQuestion(question: OpenCodeRequestQuestion, index: number): ClaudeCodeQuestion {
  const text = cut(question.question.trim() || `Question ${index + 1}`, ASK_USER_QUESTION_MAX_TEXT);
  const header = cut(question.header, CLAUDE_CODE_HEADER_MAX);
  const allowOther = question.custom !== false;
  const options = question.options.map((option) => ({
    label: option.label,
    ...(option.description ? { description: cut(option.description, ASK_USER_QUESTION_MAX_TEXT) } : {}),
  }));
  const fits = options.length >= ASK_USER_QUESTION_MIN_OPTIONS && options.length <= ASK_USER_QUESTION_MAX_OPTIONS;
  if (fits || !allowOther) {
    return {
      question: text,
      header,
      options,
      multiSelect: question.multiple === true,
      ...(allowOther ? {} : { allowOther: false }),
    };
  }
  const listed = options.map((option) =>
    option.description ? `${option.label} (${option.description})` : option.label,
  );
  return {
    question: text,
    header,
    kind: 'text',
    options: [],
    multiSelect: false,
    ...(listed.length > 0
      ? {
          description: cut(
            `OpenCode offers: ${listed.join('; ')}.${question.multiple ? ' Several may be given, separated by ", ".' : ''}`,
            ASK_USER_QUESTION_MAX_TEXT,
          ),
        }
      : {}),
  };
}
type OpenCodeRequestQuestion = OpenCodeQuestionRequest['questions'][number];

/** The questions of a `question.asked`, in OpenCode's order (the reply is positional). */
export function toQuestionInput(request: OpenCodeQuestionRequest): { questions: ClaudeCodeQuestion[] } {
  return { questions: request.questions.map(toQuestion) };
}

/** A unified diff's kind of change: `@@ -0,0` adds a file, `+0,0 @@` deletes one. */
function changeKind(diff: string | undefined): FileChange['kind'] {
  if (diff === undefined) return 'update';
  if (/^@@ -0,0 \+/m.test(diff)) return 'add';
  if (/^@@ -\d+(,\d+)? \+0,0 @@/m.test(diff)) return 'delete';
  return 'update';
}

const stringField = (metadata: Record<string, unknown>, key: string) =>
  typeof metadata[key] === 'string' ? metadata[key] : undefined;

/** Allow once, Always allow (with what it adds, when OpenCode suggests anything), Deny (R18.24). */
export function permissionChoices(request: Pick<OpenCodePermissionRequest, 'always'>): ApprovalChoice[] {
  const choices: ApprovalChoice[] = [{ id: 'once', label: 'Allow once', effect: 'allow' }];
  if (request.always.length > 0)
    choices.push({
      id: 'always',
      label: 'Always allow',
      effect: 'allow-always',
      detail: cut(`${ALWAYS_DETAIL}${request.always.join(', ')}`, 2_000),
    });
  choices.push({ id: 'reject', label: 'Deny', effect: 'deny', detail: PERMISSION_DENY_DETAIL });
  return choices;
}

/** A `permission.asked` as an approval: a command, a file change, or any other tool, in OpenCode's words. */
export function toApprovalInput(request: OpenCodePermissionRequest, directory: string): ApprovalInput {
  const { metadata } = request;
  const scope = request.patterns.slice(0, 50).map((pattern) => cut(pattern, 2_000));
  const base = { scope, choices: permissionChoices(request), cwd: cut(directory, 4_096) };
  if (request.permission === 'bash') {
    return { subject: 'command', command: stringField(metadata, 'command') ?? request.patterns.join('\n'), ...base };
  }
  const filepath = stringField(metadata, 'filepath');
  if (request.permission === 'edit' && filepath !== undefined) {
    const diff = stringField(metadata, 'diff');
    const change: FileChange = { path: filepath, kind: changeKind(diff) };
    if (diff !== undefined) {
      change.diff = diff.slice(0, APPROVAL_DIFF_MAX);
      if (diff.length > APPROVAL_DIFF_MAX) change.truncated = true;
    }
    return { subject: 'file-change', changes: [change], ...base };
  }
  const input = JSON.stringify({ patterns: request.patterns, metadata });
  return {
    subject: request.permission === 'external_directory' ? 'permissions' : 'tool',
    tool: { name: cut(request.permission, ID_MAX), input: cut(input, 20_000) },
    ...base,
  };
}

/**
 * Who asked (R18.22): the session's chain from the asking session up to the top one (`GET /session/:id`,
 * following `parentID`). The interaction belongs to the top session, so a subagent's prompt sits with its
 * parent's on the phone; the origin names the subagent and its parent session.
 */
export function originOf(chain: readonly OpenCodeSession[], sessionID: string) {
  const asking = chain[0];
  const top = chain[chain.length - 1];
  const sessionId = top?.id ?? sessionID;
  const context: Pick<InteractionContext, 'sessionTitle'> = top?.title ? { sessionTitle: cut(top.title, ID_MAX) } : {};
  if (!asking || chain.length < 2) {
    const origin: InteractionOrigin = {
      kind: 'root',
      label: cut(asking?.agent ?? AGENT_NAMES.opencode, ID_MAX),
      path: [],
      depth: 0,
      sessionId: sessionID,
    };
    return { sessionId, origin, context };
  }
  // Agent names from the top session's direct child down to the asker.
  const path = chain
    .slice(0, -1)
    .reverse()
    .slice(0, 16)
    .map((session) => cut(session.agent ?? session.title ?? 'subagent', 80));
  const origin: InteractionOrigin = {
    kind: 'subagent',
    label: cut(asking.title ?? asking.agent ?? 'subagent', ID_MAX),
    path,
    depth: path.length,
    sessionId: asking.id,
    ...(asking.parentID ? { parentSessionId: asking.parentID } : {}),
    ...(asking.agent ? { agentType: cut(asking.agent, ID_MAX) } : {}),
  };
  return { sessionId, origin, context };
}

interface Where {
  directory: string;
  chain: readonly OpenCodeSession[];
  version?: string;
}

function common(openCodeId: string, sessionID: string, where: Where, callID: string | undefined) {
  const { sessionId, origin, context } = originOf(where.chain, sessionID);
  return {
    requestId: requestIdOf(openCodeId),
    sessionId,
    origin,
    agent: where.version ? { ...OPENCODE_AGENT, version: where.version } : OPENCODE_AGENT,
    ...(callID ? { toolUseId: callID.slice(0, ID_MAX) } : {}),
    context: { ...context, cwd: cut(where.directory, 1_000) } satisfies InteractionContext,
  };
}

/** The interaction for a `question.asked` (R18.20). */
export function questionInteraction(request: OpenCodeQuestionRequest, where: Where): DirectInteractionRequest {
  const base = common(request.id, request.sessionID, where, request.tool?.callID);
  return {
    ...base,
    kind: 'question',
    inputRules: AGENT_INPUT_RULES,
    toolName: QUESTION_TOOL,
    input: toQuestionInput(request),
    context: { ...base.context, declineNote: QUESTION_DECLINE_NOTE },
  };
}

/** The interaction for a `permission.asked` (R18.24). */
export function permissionInteraction(request: OpenCodePermissionRequest, where: Where): DirectInteractionRequest {
  return {
    ...common(request.id, request.sessionID, where, request.tool?.callID),
    kind: 'approval',
    toolName: cut(request.permission, ID_MAX),
    input: toApprovalInput(request, where.directory),
  };
}

// How a Codex server request becomes an Askaway interaction (R18.2: to-interaction; R18.3–R18.5, R18.11, R18.12).
import path from 'node:path';
import {
  APPROVAL_CHANGES_MAX,
  APPROVAL_DIFF_MAX,
  CONTEXT_MESSAGE_MAX,
  ID_MAX,
  type ApprovalChoice,
  type FileChange,
  type InteractionContext,
} from '../../../contracts';
import { type DirectInteractionRequest } from '../../../protocol';
import { formFieldsOf } from './form-fields';
import {
  CODEX_PROMPT_METHODS,
  CommandApprovalParamsSchema,
  CommandDecisionSchema,
  ElicitationParamsSchema,
  FileChangeApprovalParamsSchema,
  McpToolApprovalMetaSchema,
  PermissionsApprovalParamsSchema,
  RequestUserInputParamsSchema,
  type CommandDecision,
  type FileUpdateChange,
  type UserInputQuestion,
} from './protocol';

/** The option Codex's terminal adds to every question that takes a typed answer (`isOther`). */
export const NONE_OF_THE_ABOVE = 'None of the above';
/** How long Codex 0.171 waits for a Default-mode (non-blocking) question before it goes on without an answer. */
export const CODEX_NON_BLOCKING_TIMEOUT_MS = 120_000;
/** All the diffs of one file-change approval together, so the interaction stays under the host's message size. */
const DIFF_BUDGET = 100_000;
const LABEL_MAX = 120;

/** What the thread tells the card: where it runs, its title, what Codex said before asking. */
export interface CodexThreadContext {
  cwd?: string;
  title?: string;
  agentMessage?: string;
}

/** One question as the phone keys it, and what Codex needs to read the answer back. */
export interface PlannedQuestion {
  id: string;
  /** The question text the phone answers by (made unique when two questions share a text). */
  key: string;
  labels: string[];
  /** Codex takes a typed answer ("None of the above" with a note). */
  isOther: boolean;
  /** No options: the answer is typed text only. */
  freeform: boolean;
}

/** What to-answer needs to answer Codex in its format. */
export type CodexAnswerPlan =
  | { type: 'question'; questions: PlannedQuestion[] }
  /** Each allowing choice id, and the decision Codex gets for it. */
  | { type: 'command'; decisions: Record<string, CommandDecision> }
  | { type: 'file-change' }
  | { type: 'permissions'; granted: Record<string, unknown> }
  /** Each allowing choice id, and the `_meta.persist` Codex gets with it (null: this once). */
  | { type: 'mcp-tool'; persist: Record<string, string | null> }
  | { type: 'form' }
  | { type: 'url' };

/** The interaction, without what the bridge adds: its key, the thread as session, the agent. */
export type CodexInteraction = Omit<DirectInteractionRequest, 'requestId' | 'sessionId' | 'agent' | 'origin'>;

export interface CodexPrompt {
  interaction: CodexInteraction;
  plan: CodexAnswerPlan;
  threadId: string;
  turnId?: string;
  /** Codex resolves it unanswered after CODEX_NON_BLOCKING_TIMEOUT_MS (a Default-mode question). */
  nonBlocking: boolean;
}

/** Why a request stays with the terminal. */
export interface Unsupported {
  unsupported: string;
}

const clip = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

function contextOf(thread: CodexThreadContext, extra?: string): InteractionContext | undefined {
  const message = [thread.agentMessage, extra].filter((part) => part !== undefined && part !== '').join('\n\n');
  const context: InteractionContext = {
    ...(message ? { agentMessage: clip(message, CONTEXT_MESSAGE_MAX) } : {}),
    ...(thread.cwd ? { cwd: clip(thread.cwd, 1_000), projectName: clip(path.basename(thread.cwd), ID_MAX) } : {}),
    ...(thread.title ? { sessionTitle: clip(thread.title, ID_MAX) } : {}),
  };
  return Object.keys(context).length > 0 ? context : undefined;
}

/** The note a card carries for a question Codex will not wait for (R18.11). */
export function nonBlockingNote(askedAt: Date | undefined): string {
  const at = askedAt ? ` (it asked at ${askedAt.toISOString().slice(11, 19)} UTC)` : '';
  return `Codex is not waiting for this answer: about 2 minutes after it asked${at}, it goes on without one.`;
}

function questionPrompt(
  params: unknown,
  thread: CodexThreadContext,
  askedAt: Date | undefined,
): CodexPrompt | Unsupported {
  const parsed = RequestUserInputParamsSchema.safeParse(params);
  if (!parsed.success) return { unsupported: `unreadable request_user_input: ${parsed.error.issues[0]?.message}` };
  const request = parsed.data;
  const used = new Set<string>();
  const planned: PlannedQuestion[] = [];
  const questions = request.questions.map((question: UserInputQuestion) => {
    let key = question.question;
    if (used.has(key)) key = `${key} (${question.id})`;
    used.add(key);
    const options = (question.options ?? []).map((option) => ({
      label: option.label,
      description: option.description,
    }));
    const freeform = options.length === 0;
    // The terminal lists "None of the above" with every question that takes a typed answer; a one-option
    // question keeps it as a second option the phone can pick without typing.
    if (options.length === 1 && question.isOther) options.push({ label: NONE_OF_THE_ABOVE, description: '' });
    planned.push({
      id: question.id,
      key,
      labels: options.map((option) => option.label),
      isOther: question.isOther,
      freeform,
    });
    return {
      question: key,
      header: question.header,
      ...(freeform ? { kind: 'text' as const } : { options }),
      multiSelect: false,
      ...(question.isSecret ? { secret: true } : {}),
      ...(question.isOther ? {} : { allowOther: false }),
    };
  });
  return {
    interaction: {
      kind: 'question',
      inputRules: 'agent',
      input: { questions },
      toolName: 'request_user_input',
      toolUseId: request.itemId,
      context: contextOf(thread, request.isBlocking ? undefined : nonBlockingNote(askedAt)),
    },
    plan: { type: 'question', questions: planned },
    threadId: request.threadId,
    turnId: request.turnId,
    nonBlocking: !request.isBlocking,
  };
}

const DECLINE: ApprovalChoice = {
  id: 'decline',
  label: 'No',
  effect: 'deny',
  detail: 'Codex is told it was rejected and carries on',
};
const CANCEL: ApprovalChoice = {
  id: 'cancel',
  label: 'No, and stop',
  effect: 'cancel',
  detail: "Interrupts Codex's turn, as Esc does in its terminal",
};

/** The choices for the decisions Codex lists, in its order, plus decline (it works, though 0.171 leaves it out). */
export function commandChoices(available: readonly unknown[] | null | undefined): {
  choices: ApprovalChoice[];
  decisions: Record<string, CommandDecision>;
} {
  const choices: ApprovalChoice[] = [];
  const decisions: Record<string, CommandDecision> = {};
  let cancel = false;
  const offered = available && available.length > 0 ? available : ['accept', 'cancel'];
  offered.forEach((raw, index) => {
    const parsed = CommandDecisionSchema.safeParse(raw);
    if (!parsed.success) return;
    const decision = parsed.data;
    if (decision === 'accept') choices.push({ id: 'accept', label: 'Yes, proceed', effect: 'allow' });
    else if (decision === 'acceptForSession')
      choices.push({ id: 'accept-session', label: "Yes, and don't ask again this session", effect: 'allow-session' });
    else if (decision === 'cancel') cancel = true;
    else if (decision === 'decline') return;
    else if ('acceptWithExecpolicyAmendment' in decision) {
      const prefix = decision.acceptWithExecpolicyAmendment.execpolicy_amendment.join(' ');
      choices.push({
        id: `accept-rule-${index}`,
        label: clip(`Yes, and don't ask again for commands that start with \`${prefix}\``, LABEL_MAX),
        effect: 'allow-always',
        detail: `Codex adds the rule prefix_rule(pattern=${JSON.stringify(decision.acceptWithExecpolicyAmendment.execpolicy_amendment)}, decision="allow") to its rules`,
      });
    } else {
      const amendment = decision.applyNetworkPolicyAmendment.network_policy_amendment;
      // A "deny this host" amendment is a way to decline; the phone declines plainly instead.
      if (amendment.action !== 'allow') return;
      choices.push({
        id: `network-allow-${index}`,
        label: clip(`Yes, and always allow ${amendment.host}`, LABEL_MAX),
        effect: 'allow-always',
      });
    }
    const id = choices.at(-1)?.id;
    if (id !== undefined && !(id in decisions)) decisions[id] = decision;
  });
  choices.push(DECLINE);
  if (cancel) choices.push(CANCEL);
  return { choices, decisions };
}

function commandPrompt(params: unknown, thread: CodexThreadContext): CodexPrompt | Unsupported {
  const parsed = CommandApprovalParamsSchema.safeParse(params);
  if (!parsed.success) return { unsupported: `unreadable command approval: ${parsed.error.issues[0]?.message}` };
  const request = parsed.data;
  const { choices, decisions } = commandChoices(request.availableDecisions);
  if (Object.keys(decisions).length === 0) return { unsupported: 'the command approval offers no way to allow' };
  return {
    interaction: {
      kind: 'approval',
      input: {
        subject: 'command',
        ...(request.command ? { command: clip(request.command, 20_000) } : {}),
        ...(request.cwd ? { cwd: clip(request.cwd, 4_096) } : {}),
        ...(request.reason ? { reason: clip(request.reason, 4_000) } : {}),
        choices,
      },
      toolName: 'exec_command',
      toolUseId: request.itemId,
      context: contextOf(thread),
    },
    plan: { type: 'command', decisions },
    threadId: request.threadId,
    turnId: request.turnId,
    nonBlocking: false,
  };
}

/** Codex's file changes as the card shows them, diffs cut to fit one message. */
export function fileChangesOf(changes: readonly FileUpdateChange[]): FileChange[] {
  let budget = DIFF_BUDGET;
  return changes.slice(0, APPROVAL_CHANGES_MAX).map((change) => {
    const move = change.kind.type === 'update' && change.kind.move_path ? change.kind.move_path : undefined;
    const kind = move
      ? 'move'
      : change.kind.type === 'add' || change.kind.type === 'delete'
        ? change.kind.type
        : 'update';
    const room = Math.max(0, Math.min(APPROVAL_DIFF_MAX, budget));
    const diff = change.diff.slice(0, room);
    budget -= diff.length;
    return {
      path: clip(change.path, 4_096),
      kind,
      ...(move ? { movePath: clip(move, 4_096) } : {}),
      ...(change.diff.length > 0 && room > 0 ? { diff } : {}),
      ...(diff.length < change.diff.length ? { truncated: true } : {}),
    };
  });
}

function fileChangePrompt(
  params: unknown,
  thread: CodexThreadContext,
  changes: readonly FileUpdateChange[] | undefined,
): CodexPrompt | Unsupported {
  const parsed = FileChangeApprovalParamsSchema.safeParse(params);
  if (!parsed.success) return { unsupported: `unreadable file change approval: ${parsed.error.issues[0]?.message}` };
  const request = parsed.data;
  const reason = request.reason ?? (request.grantRoot ? `Allow writes under ${request.grantRoot}` : undefined);
  return {
    interaction: {
      kind: 'approval',
      input: {
        subject: 'file-change',
        ...(thread.cwd ? { cwd: clip(thread.cwd, 4_096) } : {}),
        ...(reason ? { reason: clip(reason, 4_000) } : {}),
        ...(changes && changes.length > 0 ? { changes: fileChangesOf(changes) } : {}),
        choices: [
          { id: 'accept', label: 'Yes, apply the changes', effect: 'allow' },
          {
            id: 'accept-session',
            label: "Yes, and don't ask again for these files",
            effect: 'allow-session',
            detail: 'Until this Codex session ends',
          },
          DECLINE,
          CANCEL,
        ],
      },
      toolName: 'apply_patch',
      toolUseId: request.itemId,
      context: contextOf(thread),
    },
    plan: { type: 'file-change' },
    threadId: request.threadId,
    turnId: request.turnId,
    nonBlocking: false,
  };
}

function permissionsPrompt(params: unknown, thread: CodexThreadContext): CodexPrompt | Unsupported {
  const parsed = PermissionsApprovalParamsSchema.safeParse(params);
  if (!parsed.success) return { unsupported: `unreadable permissions approval: ${parsed.error.issues[0]?.message}` };
  const request = parsed.data;
  const { fileSystem, network } = request.permissions;
  const scope = [
    ...(fileSystem?.write ?? []).map((entry) => `write ${entry}`),
    ...(fileSystem?.read ?? []).map((entry) => `read ${entry}`),
    ...(network?.enabled ? ['network access'] : []),
  ];
  // Grant exactly what was asked, in the shape Codex reads back (`GrantedPermissionProfile`).
  const granted: Record<string, unknown> = {};
  if (fileSystem && (fileSystem.read || fileSystem.write))
    granted.fileSystem = {
      ...(fileSystem.read ? { read: fileSystem.read } : {}),
      ...(fileSystem.write ? { write: fileSystem.write } : {}),
    };
  if (network?.enabled) granted.network = { enabled: true };
  return {
    interaction: {
      kind: 'approval',
      input: {
        subject: 'permissions',
        ...(request.cwd ? { cwd: clip(request.cwd, 4_096) } : {}),
        ...(request.reason ? { reason: clip(request.reason, 4_000) } : {}),
        scope: scope.slice(0, 50).map((entry) => clip(entry, 2_000)),
        choices: [
          { id: 'turn', label: 'Allow for this turn', effect: 'allow' },
          { id: 'session', label: 'Allow for this session', effect: 'allow-session' },
          DECLINE,
        ],
      },
      toolName: 'request_permissions',
      toolUseId: request.itemId,
      context: contextOf(thread),
    },
    plan: { type: 'permissions', granted },
    threadId: request.threadId,
    turnId: request.turnId,
    nonBlocking: false,
  };
}

function elicitationPrompt(params: unknown, thread: CodexThreadContext): CodexPrompt | Unsupported {
  const parsed = ElicitationParamsSchema.safeParse(params);
  if (!parsed.success) return { unsupported: `unreadable elicitation: ${parsed.error.issues[0]?.message}` };
  const request = parsed.data;
  const base = {
    threadId: request.threadId,
    ...(request.turnId ? { turnId: request.turnId } : {}),
    nonBlocking: false,
  };
  const toolUseId = request.elicitationId ? clip(request.elicitationId, ID_MAX) : undefined;
  const approval = McpToolApprovalMetaSchema.safeParse(request._meta);
  if (approval.success) {
    // Codex's own "allow this MCP tool call?": an approval, not a form.
    const persist = approval.data.persist ?? [];
    const tool = approval.data.tool_name ?? 'tool';
    const choices: ApprovalChoice[] = [{ id: 'allow', label: 'Allow', effect: 'allow' }];
    const persisted: Record<string, string | null> = { allow: null };
    if (persist.includes('session')) {
      choices.push({ id: 'allow-session', label: 'Allow for this session', effect: 'allow-session' });
      persisted['allow-session'] = 'session';
    }
    if (persist.includes('always')) {
      choices.push({ id: 'allow-always', label: 'Always allow', effect: 'allow-always' });
      persisted['allow-always'] = 'always';
    }
    const input = approval.data.tool_params === undefined ? undefined : JSON.stringify(approval.data.tool_params);
    return {
      ...base,
      interaction: {
        kind: 'approval',
        input: {
          subject: 'tool',
          reason: clip(request.message || `Allow the ${request.serverName} MCP server to run ${tool}?`, 4_000),
          tool: {
            name: clip(`${request.serverName}: ${tool}`, ID_MAX),
            ...(input ? { input: clip(input, 20_000) } : {}),
          },
          choices: [...choices, { ...DECLINE, detail: 'The model reads that the tool call was rejected' }, CANCEL],
        },
        toolName: clip(`mcp__${request.serverName}__${tool}`, ID_MAX),
        context: contextOf(thread, approval.data.tool_description ?? undefined),
      },
      plan: { type: 'mcp-tool', persist: persisted },
    };
  }
  if (request.mode === 'url') {
    if (!request.url || !/^https?:\/\//i.test(request.url))
      return { unsupported: 'the page to open is not an http(s) URL' };
    return {
      ...base,
      interaction: {
        kind: 'form',
        input: {
          serverName: clip(request.serverName, 200),
          message: clip(request.message, 8_000),
          mode: 'url',
          url: request.url,
        },
        toolName: clip(`mcp__${request.serverName}`, ID_MAX),
        ...(toolUseId ? { toolUseId } : {}),
        context: contextOf(thread),
      },
      plan: { type: 'url' },
    };
  }
  if (request.mode !== 'form') return { unsupported: `an elicitation in mode "${request.mode}"` };
  const form = formFieldsOf(request.requestedSchema);
  if ('problem' in form) return { unsupported: form.problem };
  return {
    ...base,
    interaction: {
      kind: 'form',
      input: {
        serverName: clip(request.serverName, 200),
        message: clip(request.message, 8_000),
        mode: 'form',
        fields: form.fields,
      },
      toolName: clip(`mcp__${request.serverName}`, ID_MAX),
      context: contextOf(thread),
    },
    plan: { type: 'form' },
  };
}

/**
 * The interaction for one server request, or why it stays in the terminal (an unknown method, a shape the
 * phone cannot show). `changes` are the file changes Codex announced for the item (`item/started`), since
 * its approval request carries no diff; `askedAt` is when the bridge saw the request arrive live.
 */
export function toCodexPrompt(
  method: string,
  params: unknown,
  thread: CodexThreadContext,
  options: { changes?: readonly FileUpdateChange[]; askedAt?: Date } = {},
): CodexPrompt | Unsupported {
  switch (method) {
    case CODEX_PROMPT_METHODS.question:
      return questionPrompt(params, thread, options.askedAt);
    case CODEX_PROMPT_METHODS.command:
      return commandPrompt(params, thread);
    case CODEX_PROMPT_METHODS.fileChange:
      return fileChangePrompt(params, thread, options.changes);
    case CODEX_PROMPT_METHODS.permissions:
      return permissionsPrompt(params, thread);
    case CODEX_PROMPT_METHODS.elicitation:
      return elicitationPrompt(params, thread);
    default:
      return { unsupported: `Codex's ${method} is not carried to the phone` };
  }
}

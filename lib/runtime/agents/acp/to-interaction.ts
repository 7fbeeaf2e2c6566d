// How an ACP agent's permission requests and forms become Askaway interactions (R18.2: to-interaction, R18.37).
import path from 'node:path';
import {
  APPROVAL_DIFF_MAX,
  ID_MAX,
  type AgentRef,
  type ApprovalChoice,
  type ApprovalInput,
  type FileChange,
  type InteractionContext,
} from '../../../contracts';
import { type DirectInteractionRequest } from '../../../protocol';
import { formInputOf } from '../../mcp-form/form-input';
import { diffOf, textOf, type CreateElicitationParams, type RequestPermissionParams } from './acp-shapes';

const cut = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

/** Who asked and where: the agent from `initialize`, the session's folder from `session/new`. */
export interface AcpPlace {
  agent: AgentRef;
  /** Unique to this proxy process: two editors running the same agent never share a request id. */
  proxyId: string;
  cwd?: string;
}

/** The Askaway request id of one agent request: ACP ids are only unique on one connection. */
export function requestIdOf(place: Pick<AcpPlace, 'proxyId'>, key: string): string {
  return cut(`acp-${place.proxyId}-${key}`, ID_MAX);
}

/**
 * The agent's options as the card's choices, in its order and its words (R18.37). The card's Deny carries no
 * choice id, so one reject goes on the card: the agent's "reject once" when it has one; a "reject always"
 * stays in the editor's dialog.
 */
export function permissionChoices(options: RequestPermissionParams['options']): ApprovalChoice[] {
  const choices: ApprovalChoice[] = [];
  for (const option of options) {
    if (option.kind === 'allow_once')
      choices.push({ id: option.optionId, label: cut(option.name, 120), effect: 'allow' });
    else if (option.kind === 'allow_always')
      // ACP has one "always" kind; an agent whose "always" lasts the session says so in its name (Gemini CLI's
      // "Allow for this session"), and the card groups it as such.
      choices.push({
        id: option.optionId,
        label: cut(option.name, 120),
        effect: /\bsession\b/i.test(option.name) ? 'allow-session' : 'allow-always',
        detail:
          'The agent stops asking for calls like this one for as long as it keeps the choice, often until the session ends.',
      });
  }
  const reject =
    options.find((option) => option.kind === 'reject_once') ?? options.find((o) => o.kind === 'reject_always');
  if (reject) choices.push({ id: reject.optionId, label: cut(reject.name, 120), effect: 'deny' });
  return choices.slice(0, 8);
}

/** The option a Deny from the phone picks: the same one the card showed. */
export function rejectOption(options: RequestPermissionParams['options']) {
  return options.find((option) => option.kind === 'reject_once') ?? options.find((o) => o.kind === 'reject_always');
}

/** A file's whole change as one hunk: ACP sends the old and new text, the card reads a unified diff. */
function unifiedDiff(oldText: string | null | undefined, newText: string): string {
  const lines = (value: string) => (value === '' ? [] : value.replace(/\n$/, '').split('\n'));
  const before = oldText ? lines(oldText) : [];
  const after = lines(newText);
  return [
    `@@ -${before.length === 0 ? 0 : 1},${before.length} +${after.length === 0 ? 0 : 1},${after.length} @@`,
    ...before.map((line) => `-${line}`),
    ...after.map((line) => `+${line}`),
  ].join('\n');
}

function fileChanges(content: readonly unknown[]): FileChange[] {
  const changes: FileChange[] = [];
  for (const entry of content) {
    const diff = diffOf(entry);
    if (!diff || diff.path.trim() === '') continue;
    const text = unifiedDiff(diff.oldText, diff.newText);
    changes.push({
      path: diff.path,
      kind: diff.oldText === null || diff.oldText === undefined ? 'add' : 'update',
      diff: text.slice(0, APPROVAL_DIFF_MAX),
      ...(text.length > APPROVAL_DIFF_MAX ? { truncated: true } : {}),
    });
    if (changes.length === 100) break;
  }
  return changes;
}

const commandOf = (rawInput: unknown): string | undefined => {
  if (typeof rawInput !== 'object' || rawInput === null) return undefined;
  const command = (rawInput as Record<string, unknown>).command;
  if (typeof command === 'string') return command;
  if (Array.isArray(command) && command.every((part) => typeof part === 'string')) return command.join(' ');
  return undefined;
};

/** A `session/request_permission` as an approval card: a command, a file change, or any other tool call. */
export function toApprovalInput(params: RequestPermissionParams, cwd: string | undefined): ApprovalInput {
  const { toolCall } = params;
  const title = toolCall.title?.trim() ?? '';
  const content = toolCall.content ?? [];
  const notes = content.map(textOf).filter((note): note is string => typeof note === 'string' && note.trim() !== '');
  const base = {
    choices: permissionChoices(params.options),
    ...(cwd ? { cwd: cut(cwd, 4_096) } : {}),
    ...(notes.length > 0 ? { reason: cut(notes.join('\n\n'), 4_000) } : {}),
  };
  const changes = fileChanges(content);
  if (changes.length > 0) return { subject: 'file-change', changes, ...base };
  if (toolCall.kind === 'execute') {
    const command = commandOf(toolCall.rawInput) ?? title;
    if (command.trim() !== '') return { subject: 'command', command: cut(command, 20_000), ...base };
  }
  const input = toolCall.rawInput === undefined ? undefined : JSON.stringify(toolCall.rawInput);
  return {
    subject: 'tool',
    tool: {
      name: cut(title || toolCall.kind || 'tool call', ID_MAX),
      ...(input ? { input: cut(input, 20_000) } : {}),
    },
    ...base,
  };
}

/** The session's folder and project, as every card of the proxy shows them. */
export function contextOf(place: AcpPlace): InteractionContext {
  return place.cwd ? { cwd: cut(place.cwd, 1_000), projectName: cut(path.basename(place.cwd), ID_MAX) } : {};
}

function common(place: AcpPlace, key: string, sessionId: string, toolCallId: string | undefined) {
  return {
    requestId: requestIdOf(place, key),
    sessionId: cut(sessionId, ID_MAX),
    agent: place.agent,
    origin: { kind: 'root' as const, label: place.agent.name, path: [], depth: 0, sessionId: cut(sessionId, ID_MAX) },
    ...(toolCallId ? { toolUseId: cut(toolCallId, ID_MAX) } : {}),
    context: contextOf(place),
  };
}

/** The interaction for a `session/request_permission` (R18.37). */
export function permissionInteraction(
  params: RequestPermissionParams,
  place: AcpPlace,
  key: string,
): DirectInteractionRequest {
  return {
    ...common(place, key, params.sessionId, params.toolCall.toolCallId),
    kind: 'approval',
    toolName: cut(params.toolCall.kind || 'tool', ID_MAX),
    input: toApprovalInput(params, place.cwd),
  };
}

/** The interaction for an `elicitation/create`, or why the phone cannot show it (the editor's form stays). */
export function formInteraction(
  params: CreateElicitationParams,
  place: AcpPlace,
  key: string,
): DirectInteractionRequest | { unsupported: string } {
  const input = formInputOf({
    serverName: place.agent.name,
    message: params.message,
    mode: params.mode,
    requestedSchema: params.requestedSchema,
    url: params.url,
  });
  if ('unsupported' in input) return input;
  return {
    ...common(place, key, params.sessionId ?? 'acp', params.toolCallId ?? undefined),
    kind: 'form',
    toolName: 'elicitation',
    input,
  };
}

// How Copilot's permission prompts and `ask_user` forms become Askaway interactions (R18.2: to-interaction;
// R18.31–R18.33). A permission is shown as the TUI shows it (`promptRequest`): a command, a file change, a
// path or URL to allow, or a tool; its choices are Copilot's own, each with the decision it sends back.
import {
  AGENT_NAMES,
  APPROVAL_DIFF_MAX,
  ID_MAX,
  type AgentRef,
  type ApprovalChoice,
  type ApprovalInput,
  type FileChange,
  type FormInput,
  type InteractionContext,
  type InteractionOrigin,
} from '../../../contracts';
import { type DirectInteractionRequest } from '../../../protocol';
import { formInputOf } from '../../mcp-form/form-input';
import { type CopilotPrompt, type ElicitationRequested } from './copilot-shapes';

/**
 * Copilot has no agent kind of its own in the contracts yet: it goes as an agent that names itself (like an
 * MCP client), so its chip and filter are its own.
 */
export const COPILOT_NAME = AGENT_NAMES.copilot;
export const COPILOT_AGENT: AgentRef = { kind: 'copilot', name: COPILOT_NAME };
export const ASK_USER_TOOL = 'ask_user';

/** Beside Deny (R18.32): Copilot's reject without feedback ends its turn. */
export const DENY_NOTE =
  'With a reason, Copilot reads it and tries another way; without one, Copilot stops its turn ("Operation cancelled by user") and waits for your next message.';
export const DENY_DETAIL = 'The model reads your reason, if you give one';

/** What Copilot's `handlePendingPermissionRequest` takes as `result`. */
export type PermissionDecision =
  | { kind: 'approve-once' }
  | { kind: 'approve-for-session'; approval?: Record<string, unknown>; domain?: string }
  | { kind: 'reject'; feedback?: string };

const cut = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);
const json = (value: unknown) => (value === undefined ? undefined : cut(JSON.stringify(value) ?? '', 20_000));

/** The Askaway request id of a Copilot request: its `requestId` is a UUID, unique in the process. */
export function requestIdOf(copilotId: string): string {
  return `copilot-${copilotId}`.slice(0, ID_MAX);
}

/** Where a prompt was asked: the session (the TUI's), its working directory and title, the subagent if any. */
export interface CopilotPlace {
  sessionId: string;
  cwd: string;
  title?: string;
  version?: string;
  /** The subagent that asked (`agentId` on the event, named by its `subagent.started`). */
  subagent?: { agentId: string; name: string; agentType?: string };
}

function originOf(place: CopilotPlace): InteractionOrigin {
  if (!place.subagent)
    return { kind: 'root', label: COPILOT_NAME, path: [], depth: 0, sessionId: cut(place.sessionId, ID_MAX) };
  const label = cut(place.subagent.name, 80);
  return {
    kind: 'subagent',
    label,
    path: [label],
    depth: 1,
    agentId: cut(place.subagent.agentId, ID_MAX),
    ...(place.subagent.agentType ? { agentType: cut(place.subagent.agentType, ID_MAX) } : {}),
    parentSessionId: cut(place.sessionId, ID_MAX),
  };
}

function common(copilotId: string, place: CopilotPlace, toolCallId: string | undefined) {
  const context: InteractionContext = {
    cwd: cut(place.cwd, 1_000),
    // The TUI shows the same prompt; the first answer wins (R11.10).
    openInTerminal: true,
    ...(place.title ? { sessionTitle: cut(place.title, ID_MAX) } : {}),
  };
  return {
    requestId: requestIdOf(copilotId),
    sessionId: cut(place.sessionId, ID_MAX),
    origin: originOf(place),
    agent: place.version ? { ...COPILOT_AGENT, version: cut(place.version, 80) } : COPILOT_AGENT,
    ...(toolCallId ? { toolUseId: cut(toolCallId, ID_MAX) } : {}),
    context,
  };
}

const ONCE: ApprovalChoice = { id: 'once', label: 'Allow once', effect: 'allow' };
const DENY: ApprovalChoice = { id: 'reject', label: 'Deny', effect: 'deny', detail: DENY_DETAIL };

/** Copilot's choices for a prompt, as ids the card shows and the decisions they send (R18.31). */
export function choicesOf(prompt: CopilotPrompt): {
  choices: ApprovalChoice[];
  decisions: Record<string, PermissionDecision>;
} {
  const decisions: Record<string, PermissionDecision> = { once: { kind: 'approve-once' } };
  const choices = [ONCE];
  const session = (label: string, detail: string, decision: PermissionDecision) => {
    choices.push({ id: 'session', label: cut(label, 120), effect: 'allow-session', detail: cut(detail, 2_000) });
    decisions.session = decision;
  };
  const offers = prompt.canOfferSessionApproval === true;
  const identifiers = (prompt.commandIdentifiers ?? []).filter((name) => name.trim() !== '').slice(0, 20);
  if (prompt.kind === 'commands' && offers && identifiers.length > 0)
    session(
      `Allow ${identifiers.map((name) => `\`${name}\``).join(', ')} for this session`,
      `Copilot runs ${identifiers.join(', ')} without asking again until this session ends`,
      { kind: 'approve-for-session', approval: { kind: 'commands', commandIdentifiers: identifiers } },
    );
  else if (prompt.kind === 'write' && offers)
    session(
      'Allow file changes for this session',
      'Copilot changes files without asking again until this session ends',
      {
        kind: 'approve-for-session',
        approval: { kind: 'write' },
      },
    );
  else if (prompt.kind === 'mcp' && prompt.serverName && prompt.toolName)
    session(
      `Allow ${prompt.toolName} for this session`,
      `Copilot runs the ${prompt.serverName} MCP server's ${prompt.toolName} without asking again until this session ends`,
      {
        kind: 'approve-for-session',
        approval: { kind: 'mcp', serverName: prompt.serverName, toolName: prompt.toolName },
      },
    );
  else if (prompt.kind === 'url' && prompt.url) {
    const domain = hostOf(prompt.url);
    if (domain)
      session(
        `Allow ${domain} for this session`,
        `Copilot fetches from ${domain} without asking again until this session ends`,
        {
          kind: 'approve-for-session',
          domain,
        },
      );
  }
  choices.push(DENY);
  decisions.reject = { kind: 'reject' };
  return { choices, decisions };
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}

function fileChangeOf(prompt: CopilotPrompt): FileChange {
  const diff = prompt.diff?.trim() ? prompt.diff : prompt.newFileContents;
  const added = prompt.newFileContents !== undefined || /^--- a?\/dev\/null$/m.test(prompt.diff ?? '');
  const change: FileChange = { path: cut(prompt.fileName ?? 'file', 4_096), kind: added ? 'add' : 'update' };
  if (diff !== undefined) {
    change.diff = diff.slice(0, APPROVAL_DIFF_MAX);
    if (diff.length > APPROVAL_DIFF_MAX) change.truncated = true;
  }
  return change;
}

/** A permission prompt as the approval card's input: what will run or change, in Copilot's words. */
export function toApprovalInput(prompt: CopilotPrompt, cwd: string, choices: ApprovalChoice[]): ApprovalInput {
  const reasonText = [prompt.intention, prompt.warning, prompt.hookMessage].filter(Boolean).join('\n');
  const base = {
    choices,
    cwd: cut(cwd, 4_096),
    ...(reasonText ? { reason: cut(reasonText, 4_000) } : {}),
  };
  switch (prompt.kind) {
    case 'commands':
      return { subject: 'command', command: cut(prompt.fullCommandText ?? '', 20_000), ...base };
    case 'write':
      return { subject: 'file-change', changes: [fileChangeOf(prompt)], ...base };
    case 'read':
    case 'path':
    case 'url': {
      const scope =
        prompt.kind === 'url'
          ? [prompt.url ?? '']
          : prompt.kind === 'read'
            ? [prompt.path ?? '']
            : (prompt.paths ?? []);
      const what = prompt.kind === 'url' ? 'fetch' : prompt.kind === 'read' ? 'read' : (prompt.accessKind ?? 'access');
      return {
        subject: 'permissions',
        scope: scope
          .filter((entry) => entry !== '')
          .slice(0, 50)
          .map((entry) => cut(entry, 2_000)),
        ...base,
        reason: cut(reasonText || `Copilot asks to ${what}`, 4_000),
      };
    }
    default: {
      const name =
        prompt.kind === 'mcp'
          ? `${prompt.serverName ?? 'mcp'}: ${prompt.toolTitle || prompt.toolName || 'tool'}`
          : prompt.kind === 'memory'
            ? 'memory'
            : (prompt.toolName ?? prompt.kind);
      const input =
        prompt.kind === 'memory'
          ? json({ fact: prompt.fact, subject: prompt.subject })
          : json(prompt.args ?? prompt.toolArgs ?? (prompt.toolName ? undefined : prompt));
      return {
        subject: 'tool',
        tool: { name: cut(name.trim() || prompt.kind, ID_MAX), ...(input ? { input } : {}) },
        ...base,
        ...(reasonText || prompt.toolDescription
          ? { reason: cut(reasonText || prompt.toolDescription || '', 4_000) }
          : {}),
      };
    }
  }
}

const TOOL_OF: Record<string, string> = { commands: 'bash', write: 'write', read: 'read', url: 'url', path: 'path' };

/** The interaction for a `permission.requested` (or a prompt `pendingRequests` lists), and its decisions. */
export function permissionInteraction(
  copilotId: string,
  prompt: CopilotPrompt,
  place: CopilotPlace,
): { interaction: DirectInteractionRequest; decisions: Record<string, PermissionDecision> } {
  const { choices, decisions } = choicesOf(prompt);
  const base = common(copilotId, place, prompt.toolCallId);
  return {
    interaction: {
      ...base,
      kind: 'approval',
      toolName: cut(
        prompt.kind === 'mcp'
          ? `mcp__${prompt.serverName ?? ''}__${prompt.toolName ?? ''}`
          : (TOOL_OF[prompt.kind] ?? prompt.toolName ?? prompt.kind),
        ID_MAX,
      ),
      input: toApprovalInput(prompt, place.cwd, choices),
      context: { ...base.context, declineNote: DENY_NOTE },
    },
    decisions,
  };
}

/** The form an `elicitation.requested` shows, or why the phone cannot show it (the TUI still asks). */
export function formOf(request: ElicitationRequested): FormInput | { unsupported: string } {
  return formInputOf({
    serverName: request.elicitationSource?.trim() || COPILOT_NAME,
    message: request.message,
    mode: request.mode ?? 'form',
    requestedSchema: request.requestedSchema,
    url: request.url,
  });
}

/** The interaction for an `elicitation.requested`: `ask_user`'s form (R18.33). */
export function formInteraction(
  request: ElicitationRequested,
  input: FormInput,
  place: CopilotPlace,
): DirectInteractionRequest {
  return {
    ...common(request.requestId, place, request.toolCallId),
    kind: 'form',
    toolName: ASK_USER_TOOL,
    input,
  };
}

// Codex's approvals as Askaway approvals (R18.3, R18.12): exactly the decisions Codex offers, plus decline.
import { APPROVAL_CHANGES_MAX, APPROVAL_DIFF_MAX, type ApprovalChoice, type FileChange } from '../../../contracts';
import {
  approvalPrompt,
  clip,
  keptSlice,
  unreadable,
  whereAndWhy,
  type CodexPrompt,
  type CodexThreadContext,
  type Unsupported,
} from './codex-prompt';
import {
  CommandApprovalParamsSchema,
  CommandDecisionSchema,
  FileChangeApprovalParamsSchema,
  PermissionsApprovalParamsSchema,
  type CommandDecision,
  type FileUpdateChange,
} from './protocol';

/** All the diffs of one file-change approval together, so the interaction stays under the host's message size. */
const DIFF_BUDGET = 100_000;
const LABEL_MAX = 120;
/** What the card shows of a path (fileChangesOf), and of a change's kind (add, delete, update) kept. */
const PATH_MAX = 4_096;
const KIND_MAX = 16;

export const DECLINE: ApprovalChoice = {
  id: 'decline',
  label: 'No',
  effect: 'deny',
  detail: 'Codex is told it was rejected and carries on',
};
export const CANCEL: ApprovalChoice = {
  id: 'cancel',
  label: 'No, and stop',
  effect: 'cancel',
  detail: "Interrupts Codex's turn, as Esc does in its terminal",
};

/** The choice for one decision Codex lists, or null for one the phone offers otherwise (decline, cancel). */
function choiceFor(decision: CommandDecision, index: number): ApprovalChoice | null {
  if (decision === 'accept') return { id: 'accept', label: 'Yes, proceed', effect: 'allow' };
  if (decision === 'acceptForSession')
    return { id: 'accept-session', label: "Yes, and don't ask again this session", effect: 'allow-session' };
  if (decision === 'decline' || decision === 'cancel') return null;
  if ('acceptWithExecpolicyAmendment' in decision) {
    const rule = decision.acceptWithExecpolicyAmendment.execpolicy_amendment;
    return {
      id: `accept-rule-${index}`,
      label: clip(`Yes, and don't ask again for commands that start with \`${rule.join(' ')}\``, LABEL_MAX),
      effect: 'allow-always',
      detail: `Codex adds the rule prefix_rule(pattern=${JSON.stringify(rule)}, decision="allow") to its rules`,
    };
  }
  const amendment = decision.applyNetworkPolicyAmendment.network_policy_amendment;
  // A "deny this host" amendment is a way to decline; the phone declines plainly instead.
  if (amendment.action !== 'allow') return null;
  return {
    id: `network-allow-${index}`,
    label: clip(`Yes, and always allow ${amendment.host}`, LABEL_MAX),
    effect: 'allow-always',
  };
}

/** The choices for the decisions Codex lists, in its order, plus decline (it works, though 0.171 leaves it out). */
export function commandChoices(available: readonly unknown[] | null | undefined): {
  choices: ApprovalChoice[];
  decisions: Record<string, CommandDecision>;
} {
  const choices: ApprovalChoice[] = [];
  const decisions: Record<string, CommandDecision> = {};
  const offered = available && available.length > 0 ? available : ['accept', 'cancel'];
  offered.forEach((raw, index) => {
    const parsed = CommandDecisionSchema.safeParse(raw);
    const choice = parsed.success ? choiceFor(parsed.data, index) : null;
    if (!parsed.success || !choice || choice.id in decisions) return;
    choices.push(choice);
    decisions[choice.id] = parsed.data;
  });
  choices.push(DECLINE);
  if (offered.includes('cancel')) choices.push(CANCEL);
  return { choices, decisions };
}

export function commandPrompt(params: unknown, thread: CodexThreadContext): CodexPrompt | Unsupported {
  const parsed = CommandApprovalParamsSchema.safeParse(params);
  if (!parsed.success) return unreadable('command approval', parsed.error.issues);
  const request = parsed.data;
  const { choices, decisions } = commandChoices(request.availableDecisions);
  if (Object.keys(decisions).length === 0) return { unsupported: 'the command approval offers no way to allow' };
  const command = request.command ? { command: clip(request.command, 20_000) } : {};
  return approvalPrompt(
    request,
    'exec_command',
    { subject: 'command', ...command, ...whereAndWhy(request.cwd, request.reason), choices },
    { type: 'command', decisions },
    thread,
  );
}

/**
 * What a bridge keeps of a patch's file changes until its approval comes (R12.19): the fields the card reads,
 * cut one character past what fileChangesOf shows (so it still marks a cut diff truncated); nothing else Codex
 * sent along. `fileChangesOf(keptFileChanges(changes))` equals `fileChangesOf(changes)`.
 */
export function keptFileChanges(changes: readonly FileUpdateChange[]): FileUpdateChange[] {
  let budget = DIFF_BUDGET;
  return changes.slice(0, APPROVAL_CHANGES_MAX).map((change) => {
    const room = Math.max(0, Math.min(APPROVAL_DIFF_MAX, budget));
    budget -= Math.min(room, change.diff.length);
    const move = change.kind.move_path;
    // Strings of their own (keptSlice): a slice would keep the whole 15 MiB diff alive.
    return {
      path: keptSlice(change.path, PATH_MAX + 1),
      kind: {
        type: keptSlice(change.kind.type, KIND_MAX),
        ...(move ? { move_path: keptSlice(move, PATH_MAX + 1) } : {}),
      },
      diff: keptSlice(change.diff, room + 1),
    };
  });
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
      path: clip(change.path, PATH_MAX),
      kind,
      ...(move ? { movePath: clip(move, PATH_MAX) } : {}),
      ...(change.diff.length > 0 && room > 0 ? { diff } : {}),
      ...(diff.length < change.diff.length ? { truncated: true } : {}),
    };
  });
}

export function fileChangePrompt(
  params: unknown,
  thread: CodexThreadContext,
  changes: readonly FileUpdateChange[] | undefined,
): CodexPrompt | Unsupported {
  const parsed = FileChangeApprovalParamsSchema.safeParse(params);
  if (!parsed.success) return unreadable('file change approval', parsed.error.issues);
  const request = parsed.data;
  const reason = request.reason ?? (request.grantRoot ? `Allow writes under ${request.grantRoot}` : undefined);
  const choices: ApprovalChoice[] = [
    { id: 'accept', label: 'Yes, apply the changes', effect: 'allow' },
    {
      id: 'accept-session',
      label: "Yes, and don't ask again for these files",
      effect: 'allow-session',
      detail: 'Until this Codex session ends',
    },
    DECLINE,
    CANCEL,
  ];
  return approvalPrompt(
    request,
    'apply_patch',
    {
      subject: 'file-change',
      ...whereAndWhy(thread.cwd, reason),
      ...(changes && changes.length > 0 ? { changes: fileChangesOf(changes) } : {}),
      choices,
    },
    { type: 'file-change' },
    thread,
  );
}

export function permissionsPrompt(params: unknown, thread: CodexThreadContext): CodexPrompt | Unsupported {
  const parsed = PermissionsApprovalParamsSchema.safeParse(params);
  if (!parsed.success) return unreadable('permissions approval', parsed.error.issues);
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
  return approvalPrompt(
    request,
    'request_permissions',
    {
      subject: 'permissions',
      ...whereAndWhy(request.cwd, request.reason),
      scope: scope.slice(0, 50).map((entry) => clip(entry, 2_000)),
      choices: [
        { id: 'turn', label: 'Allow for this turn', effect: 'allow' },
        { id: 'session', label: 'Allow for this session', effect: 'allow-session' },
        DECLINE,
      ],
    },
    { type: 'permissions', granted },
    thread,
  );
}

import {
  INBOX_PATH,
  LOCAL_MACHINE_ID,
  NOTIFICATION_ANSWERS_MAX,
  PUSH_BODY_MAX,
  PUSH_PAYLOAD_ANSWERS_MAX_BYTES,
  PUSH_SUMMARY_TAG,
  PUSH_TEST_TAG,
  PUSH_TITLE_MAX,
  cardPath,
  type InteractionOrigin,
  type InteractionView,
  type NotificationAnswer,
  type NotificationData,
  type PushClosePayload,
  type PushShowPayload,
} from '../../contracts';
import { agentOf } from '../../contracts/agent-of';
import { agentKey } from '../../contracts/agent-ref';
import { DENY_WITHOUT_REASON_ENDS_TURN } from '../../contracts/agent-turns';

/**
 * What one waiting interaction looks like on a lock screen: the header chip as title,
 * the question as body, then who asked (R7.3). The auto-resolution deadline travels as
 * a time so the phone words it in its own locale and time zone. `namesAgent`: more than
 * one agent is on record, so the text says which one asked (R18.1), as the phone's chip does.
 */
export function interactionPayload(view: InteractionView, namesAgent = false): PushShowPayload {
  const { title, lines } = describe(view, namesAgent);
  const data: NotificationData = {
    kind: 'interaction',
    url: cardPath(view.requestId),
    requestId: view.requestId,
    agent: clip(agentOf(view).name, PUSH_TITLE_MAX),
  };
  const payload: PushShowPayload = {
    type: 'show',
    tag: view.requestId,
    title: clip(title, PUSH_TITLE_MAX),
    body: clip(lines.filter((line) => line.length > 0).join('\n'), PUSH_BODY_MAX),
    deadlineAt: view.autoResolution.status === 'scheduled' ? view.autoResolution.deadlineAt : undefined,
    timestamp: view.createdAt,
    data,
  };
  const answers = notificationAnswers(view);
  if (!answers) return payload;
  const withAnswers: PushShowPayload = { ...payload, data: { ...data, ...answers } };
  // Push services take about 4 KB: a question with long texts goes without buttons, its tap still opens the card.
  return Buffer.byteLength(JSON.stringify(withAnswers)) <= PUSH_PAYLOAD_ANSWERS_MAX_BYTES ? withAnswers : payload;
}

/**
 * The answers a notification's buttons may send (R14.8, R14.9): each exactly what the card's own button sends,
 * under the card's label. Approvals: the first way to allow, Deny (with no reason), then the other ways to allow;
 * never the choice that stops the agent's turn, which asks for a confirmation on the card: so Deny only where the
 * agent goes on after a Deny without a reason (DENY_WITHOUT_REASON_ENDS_TURN, by the agent's kind). A question: one
 * single-select question of plain options, one button per option, or none. Everything that must be read or
 * typed (plans, forms, several or multi-select questions, typed, secret or previewed answers) gets none.
 */
export function notificationAnswers(
  view: InteractionView,
): { answers: NotificationAnswer[]; fit: 'first' | 'all' } | undefined {
  const denies = !DENY_WITHOUT_REASON_ENDS_TURN[agentOf(view).kind];
  switch (view.kind) {
    case 'permission':
      return {
        fit: 'first',
        answers: [
          { title: 'Allow', outcome: 'allowed', response: { action: 'accept' }, appLabel: 'allow' },
          ...(denies
            ? [{ title: 'Deny', outcome: 'denied', response: { action: 'decline' }, appLabel: 'deny' } as const]
            : []),
        ],
      };
    case 'approval': {
      const allows = view.input.choices.filter((choice) => choice.effect !== 'deny' && choice.effect !== 'cancel');
      const deny = denies ? view.input.choices.find((choice) => choice.effect === 'deny') : undefined;
      const [primary, ...others] = allows;
      if (!primary) return undefined;
      const allow = (choice: typeof primary): NotificationAnswer => ({
        title: clip(choice.label, PUSH_TITLE_MAX),
        outcome: 'allowed',
        response: { action: 'accept', content: { choice: choice.id } },
      });
      const answers = [
        allow(primary),
        ...(deny
          ? [{ title: clip(deny.label, PUSH_TITLE_MAX), outcome: 'denied', response: { action: 'decline' } } as const]
          : []),
        ...others.map(allow),
      ];
      return { fit: 'first', answers: answers.slice(0, NOTIFICATION_ANSWERS_MAX) };
    }
    case 'question': {
      const [question, ...more] = view.input.questions;
      if (!question || more.length > 0 || question.multiSelect) return undefined;
      const kind = 'kind' in question ? (question.kind ?? 'choice') : 'choice';
      if (kind !== 'choice' || ('secret' in question && question.secret === true)) return undefined;
      const options = question.options;
      if (options.length === 0 || options.length > NOTIFICATION_ANSWERS_MAX) return undefined;
      // A preview travels with the answer the card sends (as an annotation) and is there to be read first.
      if (options.some((option) => option.preview !== undefined)) return undefined;
      if (options.some((option) => option.label.length > PUSH_TITLE_MAX)) return undefined;
      return {
        fit: 'all',
        answers: options.map((option) => ({
          title: option.label,
          outcome: 'answered',
          response: { action: 'accept', content: { answers: { [question.question]: option.label } } },
        })),
      };
    }
    case 'plan-approval':
    case 'form':
    // A reply to a finished turn needs text: its notification only opens the card (R19.9).
    case 'finished-turn':
      return undefined;
  }
}

/** A question whose answer is a secret (R18.5): its notification shows none of its text on a lock screen. */
function asksForSecret(view: InteractionView): boolean {
  return (
    view.kind === 'question' &&
    view.input.questions.some((question) => 'secret' in question && question.secret === true)
  );
}

/** One notification standing for several waiting interactions; it opens the inbox. */
export function summaryPayload(waiting: readonly InteractionView[], now: Date): PushShowPayload {
  const titles = waiting.slice(0, 4).map((view) => describe(view).title);
  const more = waiting.length > titles.length ? ` +${waiting.length - titles.length}` : '';
  // "waiting" keeps meaning an agent blocked mid-work; finished turns are counted apart (R19.8).
  const finished = waiting.filter((view) => view.kind === 'finished-turn').length;
  const asking = waiting.length - finished;
  const parts = [
    ...(asking > 0 ? [asking === 1 ? '1 question waiting' : `${asking} questions waiting`] : []),
    ...(finished > 0 ? [finished === 1 ? '1 turn finished' : `${finished} turns finished`] : []),
  ];
  const deadlines = waiting.flatMap((view) =>
    view.autoResolution.status === 'scheduled' ? [view.autoResolution.deadlineAt] : [],
  );
  return {
    type: 'show',
    tag: PUSH_SUMMARY_TAG,
    title: parts.join(' · '),
    body: clip(titles.join(', ') + more, PUSH_BODY_MAX),
    deadlineAt: deadlines.sort((a, b) => Date.parse(a) - Date.parse(b))[0],
    timestamp: now.toISOString(),
    data: { kind: 'summary', url: INBOX_PATH },
  };
}

export function testPayload(now: Date): PushShowPayload {
  return {
    type: 'show',
    tag: PUSH_TEST_TAG,
    title: 'Askaway test notification',
    body: 'Notifications work on this device. Tap to open Askaway.',
    timestamp: now.toISOString(),
    data: { kind: 'test', url: INBOX_PATH },
  };
}

export function closePayload(tags: readonly string[]): PushClosePayload {
  return { type: 'close', tags: [...tags] };
}

/** The same text for ntfy, which shows plain title + message; the deadline in the host's clock. */
export function ntfyText(payload: PushShowPayload): { title: string; body: string } {
  const deadline = payload.deadlineAt ? `\nThe agent continues on its own at ${formatClock(payload.deadlineAt)}.` : '';
  return { title: payload.title, body: payload.body + deadline };
}

/** Whether interactions from more than one agent are on record (R18.1). */
export function severalAgents(views: Iterable<InteractionView>): boolean {
  let first: string | undefined;
  for (const view of views) {
    const key = agentKey(agentOf(view));
    if (first === undefined) first = key;
    else if (key !== first) return true;
  }
  return false;
}

function describe(view: InteractionView, namesAgent = false): { title: string; lines: string[] } {
  const project = view.context?.projectName ? ` · ${view.context.projectName}` : '';
  const asked = askedLine(view, namesAgent);
  if (asksForSecret(view)) return { title: `Secret asked for${project}`, lines: ['Open Askaway to answer it', asked] };
  switch (view.kind) {
    case 'question': {
      const [first, ...rest] = view.input.questions;
      if (!first) return { title: `Question${project}`, lines: [asked] };
      const more = rest.length === 0 ? '' : `+${rest.length} more question${rest.length === 1 ? '' : 's'}`;
      // Claude Code's questions may have an empty header.
      return { title: `${first.header.trim() || 'Question'}${project}`, lines: [first.question, more, asked] };
    }
    case 'plan-approval':
      return {
        title: `Plan approval${project}`,
        lines: [view.input.plan ? firstLines(view.input.plan) : 'Claude Code did not include the plan text', asked],
      };
    case 'permission':
      return { title: `Allow ${view.toolName}?${project}`, lines: [permissionSummary(view.input), asked] };
    case 'approval': {
      const title =
        view.input.subject === 'file-change'
          ? 'Change files?'
          : view.input.subject === 'command'
            ? 'Run a command?'
            : 'Allow?';
      const what =
        view.input.command ?? view.input.changes?.map((change) => change.path).join(', ') ?? view.input.reason ?? '';
      return { title: `${title}${project}`, lines: [what, asked] };
    }
    case 'form':
      return { title: `${view.input.serverName} asks${project}`, lines: [view.input.message, asked] };
    case 'finished-turn':
      return finishedTurnText(view);
  }
}

/**
 * "Codex finished in shop", then the first line of its last message (R19.9); an interrupted turn says so, a failed
 * one gives its reason first. The agent is always named: "finished" needs a subject, and there is no question.
 */
function finishedTurnText(view: Extract<InteractionView, { kind: 'finished-turn' }>): {
  title: string;
  lines: string[];
} {
  const agent = agentOf(view).name;
  const project = view.context?.projectName ? ` in ${view.context.projectName}` : '';
  const machine = view.machine.id === LOCAL_MACHINE_ID ? '' : `On ${view.machine.name}`;
  const said = firstLine(view.input.message ?? '');
  switch (view.input.status) {
    case 'completed':
      return { title: `${agent} finished${project}`, lines: [said, machine] };
    case 'interrupted':
      return { title: `${agent} was interrupted${project}`, lines: [said, machine] };
    case 'failed':
      return {
        title: `${agent} failed${project}`,
        lines: [view.input.error ? firstLine(view.input.error) : said, machine],
      };
  }
}

/** The first line with text in it, without Markdown's heading marks. */
function firstLine(text: string): string {
  return firstLines(text).split('\n')[0] ?? '';
}

/**
 * Who asked: the subagent (R7.3), the agent when several are on record (R18.1), and the machine for a
 * joined machine's question (R17.3); the hub's own root agent alone goes without a line.
 */
function askedLine(view: InteractionView, namesAgent: boolean): string {
  const agent = namesAgent ? agentOf(view).name : '';
  const machine = view.machine.id === LOCAL_MACHINE_ID ? '' : view.machine.name;
  const where = machine ? ` on ${machine}` : '';
  const origin: InteractionOrigin | undefined = view.origin;
  if (origin?.kind === 'subagent') {
    const chain = origin.path.length > 1 ? ` (${origin.path.join(' › ')})` : '';
    return `Asked by subagent ${origin.label}${chain}${agent ? ` of ${agent}` : ''}${where}`;
  }
  if (agent) return `Asked by ${agent}${where}`;
  return machine ? `On ${machine}` : '';
}

function permissionSummary(input: Record<string, unknown>): string {
  for (const key of ['command', 'file_path', 'path', 'url', 'description']) {
    const value = input[key];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return '';
}

function firstLines(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/^#+\s*/, '').trim())
    .filter(Boolean)
    .slice(0, 3)
    .join('\n');
}

function formatClock(iso: string): string {
  return new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** Cuts to `max` UTF-16 units (the unit zod's max counts), never inside a surrogate pair, and marks the cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - 1;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return text.slice(0, cut).trimEnd() + '…';
}

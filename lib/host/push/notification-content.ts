import {
  INBOX_PATH,
  LOCAL_MACHINE_ID,
  PUSH_BODY_MAX,
  PUSH_SUMMARY_TAG,
  PUSH_TEST_TAG,
  PUSH_TITLE_MAX,
  cardPath,
  type InteractionOrigin,
  type InteractionView,
  type PushClosePayload,
  type PushShowPayload,
} from '../../contracts';

/**
 * What one waiting interaction looks like on a lock screen: the header chip as title,
 * the question as body, then who asked (R7.3). The auto-resolution deadline travels as
 * a time so the phone words it in its own locale and time zone.
 */
export function interactionPayload(view: InteractionView): PushShowPayload {
  const { title, lines } = describe(view);
  return {
    type: 'show',
    tag: view.requestId,
    title: clip(title, PUSH_TITLE_MAX),
    body: clip(lines.filter((line) => line.length > 0).join('\n'), PUSH_BODY_MAX),
    deadlineAt: view.autoResolution.status === 'scheduled' ? view.autoResolution.deadlineAt : undefined,
    timestamp: view.createdAt,
    data: { kind: 'interaction', url: cardPath(view.requestId), requestId: view.requestId },
  };
}

/** One notification standing for several waiting interactions; it opens the inbox. */
export function summaryPayload(waiting: readonly InteractionView[], now: Date): PushShowPayload {
  const titles = waiting.slice(0, 4).map((view) => describe(view).title);
  const more = waiting.length > titles.length ? ` +${waiting.length - titles.length}` : '';
  const deadlines = waiting.flatMap((view) =>
    view.autoResolution.status === 'scheduled' ? [view.autoResolution.deadlineAt] : [],
  );
  return {
    type: 'show',
    tag: PUSH_SUMMARY_TAG,
    title: waiting.length === 1 ? '1 question waiting' : `${waiting.length} questions waiting`,
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

function describe(view: InteractionView): { title: string; lines: string[] } {
  const project = view.context?.projectName ? ` · ${view.context.projectName}` : '';
  const asked = [originLine(view.origin), machineLine(view)].filter(Boolean).join(' ');
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
  }
}

function originLine(origin: InteractionOrigin | undefined): string {
  if (!origin || origin.kind !== 'subagent') return '';
  const chain = origin.path.length > 1 ? ` (${origin.path.join(' › ')})` : '';
  return `Asked by subagent ${origin.label}${chain}`;
}

/** Which machine asked, for a joined machine's question (R17.3); the hub's own go without. */
function machineLine(view: InteractionView): string {
  if (view.machine.id === LOCAL_MACHINE_ID) return '';
  return view.origin?.kind === 'subagent' ? `on ${view.machine.name}` : `On ${view.machine.name}`;
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

import { LOCAL_MACHINE_ID, terminalSafe, type InteractionView } from '../contracts';
import { type LifecycleEvent } from './registry-types';

/**
 * One concise terminal line per lifecycle change, or null for changes not worth a line. Every text in it
 * from outside (a question, an answer, a reason, a name, a tool name) goes through `clip`, which escapes
 * what could drive the terminal (R12.8): a decline cannot erase the line above and forge an approval.
 */
export function formatLifecycle(event: LifecycleEvent): string | null {
  const { view } = event;
  const subagent = view.origin && view.origin.depth > 0 ? clip(view.origin.label, 60) : undefined;
  // A joined machine's questions say which machine asked (R17.3); the hub's own go without.
  const machine = view.machine.id === LOCAL_MACHINE_ID ? undefined : `on ${clip(view.machine.name, 64)}`;
  const who = subagent || machine ? ` (${[subagent, machine].filter(Boolean).join(', ')})` : '';
  switch (event.type) {
    case 'requested':
      return `? ${describe(view)}${who}`;
    case 'withdrawn':
      return `x withdrawn: ${describe(view)}`;
    case 'delivered':
      return null;
    case 'reopened':
      return `? asked again, the host restarted before the agent had the secret answer: ${describe(view)}${who}`;
    case 'resolved': {
      const resolution = view.resolution;
      if (!resolution) return null;
      const response = resolution.response;
      if (resolution.resolvedBy === 'auto') return `~ auto-resolved (agent uses its judgment): ${describe(view)}`;
      const by = clip(resolution.device?.label ?? resolution.device?.id ?? resolution.resolvedBy, 60);
      if (response.action === 'cancel') return `x cancelled by ${by}: ${describe(view)}`;
      if (response.action === 'decline')
        return `x declined by ${by}: ${describe(view)}${response.message ? ` — ${clip(response.message, 60)}` : ''}`;
      const answers = Object.entries(response.content?.answers ?? {});
      if (view.kind === 'form') return `✓ filled in by ${by}: ${describe(view)}`;
      // The reply is the person's prompt: the log says one went, not what it says.
      if (view.kind === 'finished-turn') return `✓ replied by ${by}: ${describe(view)}`;
      if (view.kind !== 'question') return `✓ approved by ${by}: ${describe(view)}`;
      // A secret answer never reaches the terminal (R18.5).
      if (hasSecret(view)) return `✓ answered by ${by}: ${describe(view)}`;
      if (answers.length === 0) return `✓ skipped by ${by}: ${describe(view)}`;
      return `✓ answered by ${by}: ${answers.map(([q, a]) => `"${clip(q, 40)}"="${clip(a, 40)}"`).join(', ')}`;
    }
  }
}

function hasSecret(view: Extract<InteractionView, { kind: 'question' }>): boolean {
  return view.input.questions.some((question) => 'secret' in question && question.secret === true);
}

function describe(view: InteractionView): string {
  switch (view.kind) {
    case 'question': {
      const [first, ...rest] = view.input.questions;
      const header = first?.header.trim() ? `[${clip(first.header, 24)}] ` : '';
      return `${first ? `${header}${clip(first.question, 70)}` : 'question'}${rest.length > 0 ? ` (+${rest.length} more)` : ''}`;
    }
    case 'plan-approval':
      return 'plan approval';
    case 'permission':
      return `permission for ${clip(view.toolName, 60)}`;
    case 'approval': {
      const what = view.input.command ?? view.input.changes?.map((change) => change.path).join(', ') ?? view.toolName;
      return `approval: ${clip(what, 70)}`;
    }
    case 'form':
      return `form from ${clip(view.input.serverName, 40)}: ${clip(view.input.message, 60)}`;
    case 'finished-turn':
      return `turn ${view.input.status} in session ${clip(view.sessionId, 40)}`;
  }
}

/** One line of at most `max` characters, then escaped: the escapes are what it holds, visibly. */
function clip(text: string, max: number): string {
  const line = text.replace(/[ \t\n\r\f\v]+/g, ' ').trim();
  return terminalSafe(line.length > max ? `${line.slice(0, max - 1)}…` : line);
}

'use client';
import { useI18n } from '@/hooks/use-i18n';
import { useLive } from '@/hooks/use-live';
import { useNow } from '@/hooks/use-now';
import { type AutoResolutionState, type InteractionView } from '@/lib/contracts';
import { formatCountdown, formatStamp } from '@/lib/client/format';
import { IconClock, IconPause } from './icons/time';
import '@/lib/client/i18n-en-prompts';

/**
 * A deadline of the agent's own, which no preference of Askaway's changes: the prompt moves to the agent's
 * terminal then (R11.11), or the agent goes on without an answer (R18.11).
 */
export type AgentDeadline =
  { at: string; then: 'terminal'; machine: string } | { at: string; then: 'goes-on'; agent: string };

/** The agent's own deadline for this prompt, when its agent says there is one. */
export function agentDeadlineOf(
  view: Pick<InteractionView, 'context' | 'machine' | 'agent'>,
): AgentDeadline | undefined {
  const context = view.context;
  if (context?.movesToTerminalAt !== undefined)
    return { at: context.movesToTerminalAt, then: 'terminal', machine: view.machine.name };
  if (context?.agentDeadlineAt !== undefined)
    return { at: context.agentDeadlineAt, then: 'goes-on', agent: view.agent?.name ?? '' };
  return undefined;
}

/**
 * "Agent continues on its own in 4:12", counted from the host's absolute deadline
 * with this device's clock skew removed, so every device shows the same second (R9.9).
 * A countdown says the question is still waiting right now, which only live state knows: on a
 * cached or disconnected inbox the deadline shows as a time of day instead ("… at 14:07").
 * A prompt with a deadline of its agent's own (`agent`) counts down to that instead of saying the agent
 * waits, which it does not.
 */
export function Countdown({
  autoResolution,
  clockOffsetMs,
  showWaiting = false,
  agent,
}: {
  autoResolution: AutoResolutionState;
  clockOffsetMs: number;
  showWaiting?: boolean;
  agent?: AgentDeadline | undefined;
}) {
  const { t, lang } = useI18n();
  const live = useLive();
  const now = useNow('second');
  const deadlineAt = agent?.at ?? (autoResolution.status === 'scheduled' ? autoResolution.deadlineAt : undefined);
  if (deadlineAt === undefined) {
    if (!showWaiting) return null;
    return (
      <p className="state state--quiet" data-testid="card.auto-off">
        <IconPause size={16} />
        <span>{t('countdown.waits')}</span>
      </p>
    );
  }
  const deadline = Date.parse(deadlineAt);
  const remaining = now === 0 ? null : deadline - (now + clockOffsetMs);
  let text = '';
  if (remaining !== null && !live) {
    const time = formatStamp(new Date(deadline - clockOffsetMs).toISOString(), lang, now);
    if (agent?.then === 'terminal') text = t('countdown.terminalAt', { time, machine: agent.machine });
    else if (agent) text = t('countdown.agentGoesOnAt', { time, agent: agent.agent });
    else text = t(remaining <= 0 ? 'countdown.wasDueAt' : 'countdown.continuesAt', { time });
  } else if (remaining !== null) {
    // A prompt due to move is gone within the second: it counts to 0:00, not past it.
    const left = formatCountdown(Math.max(0, remaining));
    if (agent?.then === 'terminal') text = t('countdown.terminalIn', { t: left, machine: agent.machine });
    else if (agent)
      text = t(remaining <= 0 ? 'countdown.agentGoesOnNow' : 'countdown.agentGoesOnIn', {
        t: left,
        agent: agent.agent,
      });
    else text = remaining <= 0 ? t('countdown.continuesNow') : t('countdown.continuesIn', { t: left });
  }
  return (
    <p
      className="state state--auto"
      data-testid={agent?.then === 'goes-on' ? 'card.agent-deadline' : 'countdown'}
      data-kind={agent ? agent.then : 'auto'}
      data-deadline={deadlineAt}
      data-live={live ? 'true' : 'false'}
    >
      <IconClock size={16} />
      <span className="tabular">{text}</span>
    </p>
  );
}

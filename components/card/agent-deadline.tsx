'use client';
import { useI18n } from '@/hooks/use-i18n';
import { useLive } from '@/hooks/use-live';
import { useNow } from '@/hooks/use-now';
import { formatCountdown, formatStamp } from '@/lib/client/format';
import { IconClock } from '../icons/time';
import '@/lib/client/i18n-en-card';

/**
 * "Codex goes on without your answer in 1:42": the agent's own deadline (R18.11), which no preference of
 * Askaway's changes, counted from its absolute time with this device's clock skew removed. Like the
 * auto-resolution countdown, a cached or disconnected card shows it as a time of day.
 */
export function AgentDeadline({
  deadlineAt,
  agent,
  clockOffsetMs,
}: {
  deadlineAt: string;
  agent: string;
  clockOffsetMs: number;
}) {
  const { t, lang } = useI18n();
  const live = useLive();
  const now = useNow('second');
  const deadline = Date.parse(deadlineAt);
  const remaining = now === 0 ? null : deadline - (now + clockOffsetMs);
  let text = '';
  if (remaining !== null && remaining <= 0) text = t('card.agentGoesOnNow', { agent });
  else if (remaining !== null && !live)
    text = t('card.agentGoesOnAt', {
      agent,
      time: formatStamp(new Date(deadline - clockOffsetMs).toISOString(), lang, now),
    });
  else if (remaining !== null) text = t('card.agentGoesOnIn', { agent, t: formatCountdown(remaining) });
  return (
    <p className="state state--auto" data-testid="card.agent-deadline" data-deadline={deadlineAt}>
      <IconClock size={16} />
      <span className="tabular">{text}</span>
    </p>
  );
}

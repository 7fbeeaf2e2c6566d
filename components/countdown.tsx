'use client';
import { useI18n } from '@/hooks/use-i18n';
import { useLive } from '@/hooks/use-live';
import { useNow } from '@/hooks/use-now';
import { type AutoResolutionState } from '@/lib/contracts';
import { formatCountdown, formatStamp } from '@/lib/client/format';
import { IconClock, IconPause } from './icons/outcomes';
import '@/lib/client/i18n-en-prompts';

/**
 * "Agent continues on its own in 4:12", counted from the host's absolute deadline
 * with this device's clock skew removed, so every device shows the same second (R9.9).
 * A countdown says the question is still waiting right now, which only live state knows: on a
 * cached or disconnected inbox the deadline shows as a time of day instead ("… at 14:07").
 */
export function Countdown({
  autoResolution,
  clockOffsetMs,
  showWaiting = false,
}: {
  autoResolution: AutoResolutionState;
  clockOffsetMs: number;
  showWaiting?: boolean;
}) {
  const { t, lang } = useI18n();
  const live = useLive();
  const now = useNow('second');
  if (autoResolution.status !== 'scheduled') {
    if (!showWaiting) return null;
    return (
      <p className="state state--quiet" data-testid="card.auto-off">
        <IconPause size={16} />
        <span>{t('countdown.waits')}</span>
      </p>
    );
  }
  const deadline = Date.parse(autoResolution.deadlineAt);
  const remaining = now === 0 ? null : deadline - (now + clockOffsetMs);
  let text = '';
  if (remaining !== null && !live) {
    const time = formatStamp(new Date(deadline - clockOffsetMs).toISOString(), lang, now);
    text = remaining <= 0 ? t('countdown.wasDueAt', { time }) : t('countdown.continuesAt', { time });
  } else if (remaining !== null) {
    text = remaining <= 0 ? t('countdown.continuesNow') : t('countdown.continuesIn', { t: formatCountdown(remaining) });
  }
  return (
    <p
      className="state state--auto"
      data-testid="countdown"
      data-deadline={autoResolution.deadlineAt}
      data-live={live ? 'true' : 'false'}
    >
      <IconClock size={16} />
      <span className="tabular">{text}</span>
    </p>
  );
}

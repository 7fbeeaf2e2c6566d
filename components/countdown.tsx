'use client';
import { useI18n } from '@/hooks/use-i18n';
import { useNow } from '@/hooks/use-now';
import { type AutoResolutionState } from '@/lib/contracts';
import { formatCountdown } from '@/lib/client/format';
import { IconClock, IconPause } from './icons';

/**
 * "Agent continues on its own in 4:12", counted from the host's absolute deadline
 * with this device's clock skew removed, so every device shows the same second (R9.9).
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
  const { t } = useI18n();
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
  const remaining = now === 0 ? null : Date.parse(autoResolution.deadlineAt) - (now + clockOffsetMs);
  const text =
    remaining === null
      ? ''
      : remaining <= 0
        ? t('countdown.continuesNow')
        : t('countdown.continuesIn', { t: formatCountdown(remaining) });
  return (
    <p className="state state--auto" data-testid="countdown" data-deadline={autoResolution.deadlineAt}>
      <IconClock size={16} />
      <span className="tabular">{text}</span>
    </p>
  );
}

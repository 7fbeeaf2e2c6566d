'use client';
import { useI18n } from '@/hooks/use-i18n';
import { useNow } from '@/hooks/use-now';
import { type MachineInfo } from '@/lib/contracts';
import { formatAge } from '@/lib/client/format';
import { machinePresence } from '@/lib/client/machine-presence';
import { IconDot, IconDotOff } from './icons/presence';

/**
 * Whether a machine's agents are there (R17.5, R17.6): "2 agents connected", or "No agent connected ·
 * last seen 5m ago". A dot and words, never colour alone. Nothing while this device is not live:
 * a stale count would be a guess.
 */
export function MachineState({
  info,
  live,
  clockOffsetMs,
  urgent = false,
}: {
  info: MachineInfo | undefined;
  live: boolean;
  clockOffsetMs: number;
  /** Questions wait on it: an absent machine is worth the warning colour. */
  urgent?: boolean;
}) {
  const { t } = useI18n();
  const now = useNow('minute');
  const presence = machinePresence(info, live);
  if (!info || presence === 'unknown') return null;
  if (presence === 'connected') {
    return (
      <span className="state state--ok machine-state" data-testid="machine-state" data-presence="connected">
        <IconDot size={14} />
        {info.connectedAgents === 1 ? t('machine.connectedOne') : t('machine.connected', { n: info.connectedAgents })}
      </span>
    );
  }
  const seen = info.lastSeenAt;
  return (
    <span
      className={`state ${urgent ? 'state--queued' : 'state--quiet'} machine-state`}
      data-testid="machine-state"
      data-presence="away"
    >
      <IconDotOff size={14} />
      {seen && now !== 0
        ? t('machine.away', { time: formatAge(now + clockOffsetMs - Date.parse(seen), t) })
        : t('machine.awayNever')}
    </span>
  );
}

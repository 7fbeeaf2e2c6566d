'use client';
import { Link } from '../link';
import { useHydrated } from '@/hooks/use-hydrated';
import { useI18n } from '@/hooks/use-i18n';
import { useRemote } from '@/hooks/use-remote';
import { useNow } from '@/hooks/use-now';
import { usePairing } from '@/hooks/use-pairing';
import { formatStamp } from '@/lib/client/format';
import { type Lang, type Translate } from '@/lib/client/i18n';
import { isLive, queuedCount, type RemoteState } from '@/lib/client/store';
import { IconAlert, IconCheck, IconCloudOff, IconRefresh } from '../icons/shell';

/**
 * The inbox on screen is what this device saw last time, not the host's: say so, and since when.
 * Two parts, so a narrow header cuts the second ("· connecting…"), never the time.
 */
function cachedWords(state: RemoteState, t: Translate, lang: Lang, now: number): [string, string] {
  const seenAt = state.host.seenAt;
  const away = state.status === 'offline' || state.status === 'refused' || state.status === 'unpaired';
  const lead =
    seenAt && now !== 0 ? t('status.lastSeen', { time: formatStamp(seenAt, lang, now) }) : t('status.notLive');
  return [lead, ` · ${away ? t('status.notLiveOffline') : t('status.notLiveConnecting')}`];
}

function statusWord(state: RemoteState, t: Translate): string {
  const queued = queuedCount(state);
  switch (state.status) {
    case 'connected':
      return queued > 0 ? t('status.queuedCount', { n: queued }) : t('status.connected');
    case 'offline':
      return t('status.offlineQueued', { n: queued });
    case 'reconnecting':
      return queued > 0
        ? `${t('status.reconnecting')} · ${t('status.queuedCount', { n: queued })}`
        : t('status.reconnecting');
    case 'refused':
      return t('status.offline');
    case 'unpaired':
      return t('status.notPaired');
    default:
      return t('status.connecting');
  }
}

/**
 * The dot + word in every screen's header (never a spinner without words). Nothing for a device that has not
 * paired: there is nothing to be connected to yet, and the banner says how to pair.
 */
export function ConnectionPill() {
  const state = useRemote();
  const { t, lang } = useI18n();
  const now = useNow('minute');
  const hydrated = useHydrated();
  const pairing = usePairing();
  // In the prerendered HTML: first-paint.css shows it to a device that has paired only (R9.14).
  if (!hydrated)
    return (
      <Pill status="idle" live={false} className="boot-paired" Icon={IconRefresh}>
        <span>{t('status.connecting')}</span>
      </Pill>
    );
  if (pairing === null) return null;
  const live = isLive(state);
  const cached = state.host.cached && !state.host.hasSnapshot;
  const Icon =
    state.status === 'connected' && !cached
      ? IconCheck
      : state.status === 'offline'
        ? IconCloudOff
        : state.status === 'refused' || state.status === 'unpaired'
          ? IconAlert
          : IconRefresh;
  return (
    <Pill status={state.status} live={live} Icon={Icon}>
      {cached ? (
        cachedWords(state, t, lang, now).map((part, index) => (
          <span key={index} className={index === 0 ? 'pill__lead' : 'pill__rest'}>
            {part}
          </span>
        ))
      ) : (
        <span>{statusWord(state, t)}</span>
      )}
    </Pill>
  );
}

function Pill({
  status,
  live,
  className,
  Icon,
  children,
}: {
  status: string;
  live: boolean;
  className?: string;
  Icon: typeof IconAlert;
  children: React.ReactNode;
}) {
  return (
    <span
      className={className ? `pill ${className}` : 'pill'}
      data-status={status}
      data-live={live ? 'true' : 'false'}
      data-testid="connection.status"
      role="status"
      aria-live="polite"
    >
      <Icon size={14} />
      {children}
    </span>
  );
}

/** A full-width explanation when something is wrong with the connection. */
export function ConnectionBanner() {
  const state = useRemote();
  const { t } = useI18n();
  const hydrated = useHydrated();
  let message: string | null = null;
  let action: React.ReactNode = null;
  // In the prerendered HTML, for a device that never paired (R9.14).
  const boot = !hydrated;
  if (boot || state.status === 'unpaired') {
    message = t('pair.needed');
    action = (
      <Link href="/pair" className="banner__action">
        {t('pair.action')}
      </Link>
    );
  } else if (state.status === 'refused' && state.error) {
    message = state.error.kind === 'protocol-mismatch' ? t('error.protocol') : t('error.unauthorized');
    action = (
      <Link href="/pair" className="banner__action">
        {t('pair.action')}
      </Link>
    );
  } else if (
    (state.status === 'reconnecting' || state.status === 'connecting') &&
    state.error?.kind === 'unreachable'
  ) {
    message = t('error.unreachable', { url: state.hostUrl || location.origin });
  } else if (state.status === 'offline') {
    message = t('status.offlineQueued', { n: queuedCount(state) });
  }
  if (!message) return null;
  return (
    // A landmark of its own: it stands outside <main>, and content outside every landmark is missed when a screen
    // reader moves by landmarks.
    <section
      className={boot ? 'banner boot-unpaired' : 'banner'}
      aria-label={t('common.connection')}
      data-testid="connection.banner"
      data-kind={boot ? 'unpaired' : (state.error?.kind ?? state.status)}
    >
      <IconAlert size={18} />
      <p>{message}</p>
      {action}
    </section>
  );
}

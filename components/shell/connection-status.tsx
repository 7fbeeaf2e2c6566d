'use client';
import Link from 'next/link';
import { useI18n } from '@/hooks/use-i18n';
import { useRemote } from '@/hooks/use-remote';
import { type Translate } from '@/lib/client/i18n';
import { queuedCount, type RemoteState } from '@/lib/client/store';
import { IconAlert, IconCheck, IconCloudOff, IconRefresh } from '../icons';

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

/** The dot + word in every screen's header (never a spinner without words). */
export function ConnectionPill() {
  const state = useRemote();
  const { t } = useI18n();
  const Icon =
    state.status === 'connected'
      ? IconCheck
      : state.status === 'offline'
        ? IconCloudOff
        : state.status === 'refused' || state.status === 'unpaired'
          ? IconAlert
          : IconRefresh;
  return (
    <span className="pill" data-status={state.status} data-testid="connection.status" role="status" aria-live="polite">
      <Icon size={14} />
      <span>{statusWord(state, t)}</span>
    </span>
  );
}

/** A full-width explanation when something is wrong with the connection. */
export function ConnectionBanner() {
  const state = useRemote();
  const { t } = useI18n();
  let message: string | null = null;
  let action: React.ReactNode = null;
  if (state.status === 'unpaired') {
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
    <div className="banner" data-testid="connection.banner" data-kind={state.error?.kind ?? state.status}>
      <IconAlert size={18} />
      <p>{message}</p>
      {action}
    </div>
  );
}

'use client';
import { useI18n } from '@/hooks/use-i18n';
import { useServiceWorker } from '@/lib/client/service-worker-registration';
import { IconRefresh } from '../icons/shell';

/** Registers the service worker and offers the waiting update; never reloads on its own. */
export function ServiceWorkerSlot() {
  const { updateWaiting, applyUpdate } = useServiceWorker();
  const { t } = useI18n();
  if (!updateWaiting) return null;
  return (
    // Outside <main>: a landmark of its own, as the connection banner is.
    <section className="banner banner--update" aria-label={t('common.update')} data-testid="app.update">
      <IconRefresh size={18} />
      <p role="status">{t('update.ready')}</p>
      <button type="button" className="button" onClick={applyUpdate} data-testid="app.update-apply">
        {t('update.reload')}
      </button>
    </section>
  );
}

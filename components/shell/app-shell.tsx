'use client';
import { usePathname } from 'next/navigation';
import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { I18nProvider, useChosenLanguage, useLocalSettings } from '@/hooks/use-i18n';
import { LiveProvider } from '@/hooks/use-live';
import { usePairing, usePairingProblem } from '@/hooks/use-pairing';
import { appStore } from '@/lib/client/app-store';
import { startConnection } from '@/lib/client/connection-loader';
import { applyTheme } from '@/lib/client/local-settings';
import { installTestHook } from '@/lib/client/test-hook';
import { BottomNav } from './bottom-nav';
import { ConnectionBanner } from './connection-status';

// Shown only to a device that must pair again (rare): its code loads when it is needed.
const PairAgainScreen = lazy(() =>
  import('./pair-again-screen').then((module) => ({ default: module.PairAgainScreen })),
);

// The service worker registers after the page's load event, so its code (and its update prompt) loads
// then too, not with any route's first screen (R13.4).
const ServiceWorkerSlot = lazy(() =>
  import('./service-worker-slot').then((module) => ({ default: module.ServiceWorkerSlot })),
);

function subscribeLoad(listener: () => void): () => void {
  window.addEventListener('load', listener);
  return () => window.removeEventListener('load', listener);
}

/** True once the page's load event has fired (false while prerendering). */
function usePageLoaded(): boolean {
  return useSyncExternalStore(
    subscribeLoad,
    () => document.readyState === 'complete',
    () => false,
  );
}

/** Owns the connection and the language for the app's lifetime; screens only read the store and useI18n(). */
export function AppShell({ children }: { children: React.ReactNode }) {
  const pairing = usePairing();
  const problem = usePairingProblem();
  const settings = useLocalSettings();
  const i18n = useChosenLanguage();
  const { lang, t } = i18n;
  const pathname = usePathname();
  const onPairScreen = pathname.startsWith('/pair');
  const loaded = usePageLoaded();

  useEffect(() => {
    installTestHook(appStore);
  }, []);

  useEffect(() => {
    // Pairing stores the credential before it leaves the pair screen, so this follows it without a race.
    startConnection(pairing);
  }, [pairing]);

  useEffect(() => applyTheme(settings.theme), [settings.theme]);
  useEffect(() => {
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  }, [lang]);

  const focused = pathname.startsWith('/card');
  // A removed device (or one holding the old shared token) sees only how to pair again; /pair still works.
  const blocked = problem !== null && !onPairScreen;
  return (
    <I18nProvider value={i18n}>
      <LiveProvider>
        <div className="app" data-focused={focused ? 'true' : undefined}>
          <a className="skip-link" href="#main">
            {t('common.skipToContent')}
          </a>
          {/* On the pair screen the page itself says what to do. */}
          {blocked || onPairScreen ? null : <ConnectionBanner />}
          {loaded ? (
            <Suspense fallback={null}>
              <ServiceWorkerSlot />
            </Suspense>
          ) : null}
          <main id="main" className="app__main">
            {blocked ? (
              <Suspense fallback={null}>
                <PairAgainScreen problem={problem} />
              </Suspense>
            ) : (
              children
            )}
          </main>
          {focused || blocked ? null : <BottomNav />}
        </div>
      </LiveProvider>
    </I18nProvider>
  );
}

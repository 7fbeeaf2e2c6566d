'use client';
import { usePathname } from 'next/navigation';
import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { useHydrated } from '@/hooks/use-hydrated';
import { I18nProvider, useChosenLanguage, useLocalSettings } from '@/hooks/use-i18n';
import { LiveProvider } from '@/hooks/use-live';
import { usePairing, usePairingProblem } from '@/hooks/use-pairing';
import { appStore } from '@/lib/client/app-store';
import { startConnection } from '@/lib/client/connection-loader';
import { applyTheme } from '@/lib/client/local-settings';
import { installTestHook, markPhase } from '@/lib/client/test-hook';
import { BottomNav } from './bottom-nav';
import { ConnectionBanner } from './connection-status';
// In every route's prerendered HTML (R9.14), so its code is in every first screen: a lazy one would blank the
// screen between hydration and its chunk.
import { PairAgainScreen } from './pair-again-screen';

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
  const hydrated = useHydrated();

  useEffect(() => {
    markPhase('hydrated');
    installTestHook(appStore);
  }, []);

  useEffect(() => {
    // Pairing stores the credential before it leaves the pair screen, so this follows it without a race. Not
    // while hydrating: the pairing read then is the prerendered HTML's (none), which would say "not paired".
    if (hydrated) startConnection(pairing);
  }, [pairing, hydrated]);

  useEffect(() => applyTheme(settings.theme), [settings.theme]);
  useEffect(() => {
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  }, [lang]);

  const focused = pathname.startsWith('/card');
  // A removed device (or one holding the old shared token) sees only how to pair again; /pair still works.
  const blocked = problem !== null && !onPairScreen;
  // While hydrating, the pair-again screen is in the page beside the route, for first-paint.css to choose (R9.14).
  const gate = !hydrated && !onPairScreen;
  return (
    <I18nProvider value={i18n}>
      <LiveProvider>
        <div className="app" data-focused={focused ? 'true' : undefined} data-boot-gate={gate ? 'true' : undefined}>
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
            {/* One place for both, so the screen the HTML showed is the one hydration keeps. */}
            {gate || blocked ? <PairAgainScreen problem={blocked ? problem : null} /> : null}
            {blocked ? null : children}
          </main>
          {focused || blocked ? null : onPairScreen ? (
            // Before pairing the other tabs have nothing to show: the pairing page is only about pairing. While
            // hydrating, first-paint.css shows the bar to a device that has paired (R9.14).
            !hydrated ? (
              <BottomNav className="boot-paired" />
            ) : pairing ? (
              <BottomNav />
            ) : null
          ) : (
            <BottomNav />
          )}
        </div>
      </LiveProvider>
    </I18nProvider>
  );
}

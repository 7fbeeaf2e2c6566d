'use client';
import {
  createContext,
  createElement,
  useContext,
  useEffect,
  useMemo,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import {
  hasLanguage,
  loadLanguage,
  subscribeLanguages,
  translator,
  type Lang,
  type Translate,
} from '@/lib/client/i18n';
import {
  getLocalSettings,
  getServerLocalSettings,
  resolveLang,
  subscribeLocalSettings,
  type LocalSettings,
} from '@/lib/client/local-settings';

export interface I18n {
  lang: Lang;
  t: Translate;
}

export function useLocalSettings(): LocalSettings {
  return useSyncExternalStore(subscribeLocalSettings, getLocalSettings, getServerLocalSettings);
}

const subscribeNothing = () => () => undefined;

// A Chinese reader's strings start loading as the app's code runs, before React hydrates.
if (typeof window !== 'undefined') {
  const lang = resolveLang(getLocalSettings().lang);
  if (lang !== 'en') loadLanguage(lang).catch(() => undefined);
}

/**
 * The language this device chose (or its browser's), and its translate function; English while
 * prerendering, and until the chosen language's strings have loaded.
 */
export function useChosenLanguage(): I18n {
  const { lang: choice } = useLocalSettings();
  const chosen = useSyncExternalStore(
    subscribeNothing,
    () => resolveLang(choice),
    () => 'en' as Lang,
  );
  const loaded = useSyncExternalStore(
    subscribeLanguages,
    () => hasLanguage(chosen),
    () => true,
  );
  useEffect(() => {
    if (!loaded) loadLanguage(chosen).catch(() => undefined);
  }, [chosen, loaded]);
  const lang = loaded ? chosen : 'en';
  return useMemo(() => ({ lang, t: translator(lang) }), [lang]);
}

const I18nContext = createContext<I18n>({ lang: 'en', t: translator('en') });

/** Gives every component below the language the app shell resolved once. */
export function I18nProvider({ value, children }: { value: I18n; children: ReactNode }) {
  return createElement(I18nContext.Provider, { value }, children);
}

/** The active language and its translate function (from the app shell's I18nProvider). */
export function useI18n(): I18n {
  return useContext(I18nContext);
}

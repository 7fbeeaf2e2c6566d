'use client';
import { useMemo, useSyncExternalStore } from 'react';
import { translator, type Lang, type Translate } from '@/lib/client/i18n';
import {
  getLocalSettings,
  getServerLocalSettings,
  resolveLang,
  subscribeLocalSettings,
  type LocalSettings,
} from '@/lib/client/local-settings';

export function useLocalSettings(): LocalSettings {
  return useSyncExternalStore(subscribeLocalSettings, getLocalSettings, getServerLocalSettings);
}

const subscribeNothing = () => () => undefined;

/** The active language and its translate function; English while prerendering. */
export function useI18n(): { lang: Lang; t: Translate } {
  const { lang: choice } = useLocalSettings();
  const lang = useSyncExternalStore(
    subscribeNothing,
    () => resolveLang(choice),
    () => 'en' as Lang,
  );
  const t = useMemo(() => translator(lang), [lang]);
  return { lang, t };
}

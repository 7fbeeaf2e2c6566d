import { type Lang, langFromNavigator } from './i18n';

/** Per-device choices kept in localStorage (never sent to the host). */
export type ThemeChoice = 'system' | 'light' | 'dark';
export type LangChoice = 'system' | Lang;

export interface LocalSettings {
  theme: ThemeChoice;
  lang: LangChoice;
}

const KEY = 'askaway.settings';
const DEFAULTS: LocalSettings = { theme: 'system', lang: 'system' };
const listeners = new Set<() => void>();
let cached: LocalSettings | null = null;

function read(): LocalSettings {
  try {
    const raw = window.localStorage.getItem(KEY);
    if (!raw) return DEFAULTS;
    const parsed = JSON.parse(raw) as Partial<LocalSettings>;
    return {
      theme: parsed.theme === 'light' || parsed.theme === 'dark' ? parsed.theme : 'system',
      lang: parsed.lang === 'en' || parsed.lang === 'zh' ? parsed.lang : 'system',
    };
  } catch {
    return DEFAULTS;
  }
}

export function getLocalSettings(): LocalSettings {
  if (typeof window === 'undefined') return DEFAULTS;
  cached ??= read();
  return cached;
}

export function getServerLocalSettings(): LocalSettings {
  return DEFAULTS;
}

export function subscribeLocalSettings(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function updateLocalSettings(patch: Partial<LocalSettings>): void {
  cached = { ...getLocalSettings(), ...patch };
  try {
    window.localStorage.setItem(KEY, JSON.stringify(cached));
  } catch {
    // Private mode without storage: the choice still holds for this page.
  }
  applyTheme(cached.theme);
  for (const listener of listeners) listener();
}

export function applyTheme(theme: ThemeChoice): void {
  const root = document.documentElement;
  if (theme === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', theme);
}

export function resolveLang(choice: LangChoice): Lang {
  if (choice !== 'system') return choice;
  return langFromNavigator(typeof navigator === 'undefined' ? undefined : navigator.languages);
}

/** Runs before first paint (inline in the layout) so a manual dark theme never flashes light. */
export const THEME_BOOT_SCRIPT = `try{var s=JSON.parse(localStorage.getItem(${JSON.stringify(KEY)})||'{}');if(s.theme==='light'||s.theme==='dark')document.documentElement.setAttribute('data-theme',s.theme);var l=s.lang==='en'||s.lang==='zh'?s.lang:((navigator.languages&&navigator.languages[0])||'en').toLowerCase().indexOf('zh')===0?'zh':'en';document.documentElement.lang=l==='zh'?'zh-CN':'en'}catch(e){}`;

import { type enApproval } from './i18n-en-approval';
import { type enCard } from './i18n-en-card';
import { type enForm } from './i18n-en-form';
import { type enInbox } from './i18n-en-inbox';
import { type enMorePending } from './i18n-en-more-pending';
import { type enOutcomes } from './i18n-en-outcomes';
import { type enPair } from './i18n-en-pair';
import { type enPrompts } from './i18n-en-prompts';
import { type enScreens } from './i18n-en-screens';
import { type enSessions } from './i18n-en-sessions';
import { type enSettings } from './i18n-en-settings';
import { type enTeam } from './i18n-en-team';
import { type enTurnCard } from './i18n-en-turn-card';
import { type enTurns } from './i18n-en-turns';

/**
 * Every UI string, in English and Chinese. A key names the part of the app that shows the string,
 * then what the string is: `inbox.emptyTitle`, `outcome.declined` (how an interaction ended).
 * English comes in seven tables: these, shown on every route, the words of a prompt wherever one shows
 * (./i18n-en-prompts.ts), and the inbox's, the card's, Settings', the pairing page's and History's and
 * Sessions' own (./i18n-en-inbox.ts, ./i18n-en-card.ts, ./i18n-en-settings.ts, ./i18n-en-pair.ts,
 * ./i18n-en-screens.ts), which arrive with the components that show them.
 */
const en = {
  'status.connected': 'Connected',
  'status.connecting': 'Connecting…',
  'status.reconnecting': 'Reconnecting…',
  'status.offline': 'Offline',
  'status.offlineQueued': 'Offline — {n} answer(s) queued',
  'status.queuedCount': '{n} answer(s) queued',
  'status.notPaired': 'Not connected to a host',
  'status.lastSeen': 'Last seen {time}',
  'status.notLive': 'Not live',
  'status.notLiveConnecting': 'connecting…',
  'status.notLiveOffline': 'offline',

  'inbox.waiting': '{n} waiting',

  'nav.inbox': 'Inbox',
  'nav.sessions': 'Sessions',
  'nav.history': 'History',
  'nav.settings': 'Settings',

  'pair.needed': 'Open a pairing link from “askaway pair” on your computer, or enter its address and code.',
  'pair.action': 'Pair',
  'pair.saved': 'Paired. Connecting…',

  'removed.title': 'This device was removed from {host}',
  'removed.body': 'Its access was taken back, so it no longer sees or answers questions.',
  'removed.legacyTitle': 'Pair this device again',
  'removed.legacyBody':
    'Askaway now gives every phone and browser its own key that can be taken back. This device still holds the old shared token, which only agents use now.',
  'removed.how':
    'Pair again: run “askaway pair” on {host} and open the link it prints on this device, or scan its QR code.',
  'removed.thatComputer': 'the computer running Askaway',
  'removed.enterCode': 'Enter a pairing code',

  'error.unauthorized':
    'The host does not recognise this device (its data may have been reset). Pair again: run “askaway pair” on the computer and open the link.',
  'error.protocol': 'This app and the host speak different protocol versions. Update the host or reload the app.',
  'error.unreachable': 'Cannot reach the host at {url}. Is “askaway start” running and reachable from this device?',
  'error.generic': 'Something went wrong: {message}',

  'update.ready': 'A new version is ready.',
  'update.reload': 'Reload',

  'time.minutes': '{n} min',
  'time.seconds': '{n} s',
  'time.hours': '{n} h',
  'time.justNow': 'just now',
  'time.minutesAgo': '{n}m ago',
  'time.hoursAgo': '{n}h ago',
  'time.daysAgo': '{n}d ago',

  'common.cancel': 'Cancel',
  'common.loading': 'Loading…',
  'common.session': 'session {id}',
  'common.mainAgent': 'main agent',
  'common.skipToContent': 'Skip to content',
  'common.connection': 'Connection',
  'common.update': 'Update',

  // Machines (R17): one hub, the phone, and every computer whose agents ask through it.
  'machine.label': 'Machine: {name}',
  'machine.prefix': 'Machine:',
  'machine.connectedOne': '1 agent connected',
  'machine.connected': '{n} agents connected',
  'machine.away': 'No agent connected · last seen {time}',
  'machine.awayNever': 'No agent connected yet',
  'machine.waitingFor': 'Waiting for {name} to come back',
  'machine.deliveryWaits': 'Kept on the hub · delivered when {name} is back',

  // Agents (R18.1): named once a second one is on record.
  'agent.label': 'Agent: {name}',
} as const;

export type MessageKey =
  | keyof typeof en
  | keyof typeof enInbox
  | keyof typeof enMorePending
  | keyof typeof enPrompts
  | keyof typeof enOutcomes
  | keyof typeof enCard
  | keyof typeof enApproval
  | keyof typeof enForm
  | keyof typeof enPair
  | keyof typeof enScreens
  | keyof typeof enSessions
  | keyof typeof enSettings
  | keyof typeof enTeam
  | keyof typeof enTurns
  | keyof typeof enTurnCard;
export type Messages = Record<MessageKey, string>;
export type Lang = 'en' | 'zh';
export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

// English ships with the pages (each route's share of it, see addEnglish); another language loads the
// first time a reader needs it, so each reader downloads only their own strings (R13.4).
const english: Partial<Messages> = { ...en };
const tables: Partial<Record<Lang, Partial<Messages>>> = { en: english };
const loading = new Map<Lang, Promise<void>>();
const listeners = new Set<() => void>();
const translators = new Map<Lang, Translate>();

/** The English strings every route carries (the other tables: see the top of this file). */
export const ENGLISH_EVERY_ROUTE = en;

/** Adds a route's own English strings; their module calls this as it loads, before anything renders them. */
export function addEnglish(table: Partial<Messages>): void {
  Object.assign(english, table);
}

/** True when the language's strings are here, so translator(lang) speaks it. */
export function hasLanguage(lang: Lang): boolean {
  return tables[lang] !== undefined;
}

/** Loads a language's strings (once); subscribers hear when they arrive. */
export function loadLanguage(lang: Lang): Promise<void> {
  if (hasLanguage(lang)) return Promise.resolve();
  let pending = loading.get(lang);
  if (!pending) {
    pending = import('./i18n-zh').then(
      ({ zh }) => {
        tables.zh = zh;
        for (const listener of listeners) listener();
      },
      (error: unknown) => {
        loading.delete(lang);
        throw error;
      },
    );
    loading.set(lang, pending);
  }
  return pending;
}

export function subscribeLanguages(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The translate function of a language whose strings are loaded (English until then); the same
 * function every time, so it is safe in React deps.
 */
export function translator(lang: Lang): Translate {
  const table = tables[lang];
  if (!table) return translator('en');
  let translate = translators.get(lang);
  if (!translate) {
    translate = (key, vars) => {
      // A key whose English table did not come with the component (i18n-tables.test.ts guards it) shows as itself.
      const template = table[key] ?? key;
      if (!vars) return template;
      return template.replace(/\{(\w+)\}/g, (match, name: string) => (name in vars ? String(vars[name]) : match));
    };
    translators.set(lang, translate);
  }
  return translate;
}

/** Browser languages starting with zh get Chinese; everything else English. */
export function langFromNavigator(languages: readonly string[] | undefined): Lang {
  const first = languages?.[0]?.toLowerCase() ?? 'en';
  return first.startsWith('zh') ? 'zh' : 'en';
}

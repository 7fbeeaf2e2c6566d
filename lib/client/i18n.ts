/**
 * Every UI string, in English and Chinese. A key names the part of the app that shows the string,
 * then what the string is: `inbox.emptyTitle`, `outcome.declined` (how an interaction ended).
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
  'inbox.nothingWaiting': 'Nothing waiting',
  'inbox.title': 'Inbox',
  'inbox.emptyTitle': 'No questions waiting',
  'inbox.emptyBody':
    'When your coding agent needs a decision from you, its question appears here — answer it from anywhere.',
  'inbox.connectAgent': 'Connect an agent',
  'inbox.connectAgentBody':
    'Run “askaway start” next to your agent and add the Askaway MCP server or the Claude Code hook. See the README for setup.',
  'inbox.questionCount': '{n} questions',
  'inbox.oneQuestion': '1 question',

  'question.other': 'Other…',
  'question.otherPlaceholder': 'Type your answer',
  'question.otherOwn': 'Type my own answer…',
  'question.typedAnswer': 'Your answer',
  'question.numberAnswer': 'Your number',
  'question.numberRange': 'Between {min} and {max}',
  'question.numberSuggested': 'Suggested: {value}',
  'question.numberInvalid': 'Enter a number, such as 12 or 3.5.',
  'question.numberOutOfRange': 'Enter a number between {min} and {max}.',
  'question.numberLess': 'Less',
  'question.numberMore': 'More',
  'question.headerFull': 'Show the whole header',
  'question.headerShort': 'Shorten the header',
  'question.chip': 'Question',
  'question.addNote': 'Add a note',
  'question.noteLabel': 'Note for the agent',
  'question.skip': 'Skip this question',
  'question.unskip': 'Answer this question',
  'question.recommended': 'Recommended',
  'question.skipped': 'skipped',

  'answers.edit': 'Edit',
  'answers.notes': 'Notes',

  'card.skipAll': 'Skip all',
  'card.decline': 'Decline…',
  'card.declineTitle': 'Decline this question?',
  'card.declineReason': 'Reason (optional)',
  'card.declineHint': 'The agent sees that you declined, with your reason.',
  'card.declineConfirm': 'Decline',
  'card.skipAllTitle': 'Skip all questions?',
  'card.skipAllHint': 'The agent continues on its best judgment. Skipping is not a rejection.',
  'card.review': 'Review',
  'card.submit': 'Submit',
  'card.next': 'Next',
  'card.back': 'Back',
  'card.step': '{i} of {n}',
  'card.moreActions': 'More actions',
  'card.agentSaid': 'Agent said',
  'card.showMore': 'Show more',
  'card.showLess': 'Show less',
  'card.notFoundTitle': 'Not found',
  'card.notFoundBody': 'This question is no longer here. It may have been answered elsewhere.',
  'card.backToInbox': 'Back to inbox',
  'card.nextQuestion': 'Next question',

  'countdown.continuesIn': 'Agent continues on its own in {t}',
  'countdown.continuesNow': 'Agent continues on its own now',
  'countdown.continuesAt': 'Agent continues on its own at {time}',
  'countdown.wasDueAt': 'Agent was to continue on its own at {time}',
  'countdown.waits': 'The agent waits for you',

  'receipt.applied': 'Received by the agent',
  'receipt.sending': 'Sending…',
  'receipt.queued': 'Queued — will send when connected',
  'receipt.delivered': 'Answered · delivered {time}',
  'receipt.lostRace': 'Already answered {by} at {time}',
  'receipt.byOtherDevice': 'by another device',
  'receipt.byAuto': 'by auto-resolution',
  'receipt.byAgent': 'by the agent',
  'receipt.yourAnswer': 'Your answer (not sent)',

  'preview.title': 'Preview',
  'preview.of': 'Preview of “{label}”',
  'preview.none': 'This option has no preview.',

  'plan.chip': 'Plan',
  'plan.title': 'Approve the plan?',
  'plan.missing':
    'Claude Code did not include the plan text. You can still approve or reject it; the terminal shows the plan.',
  'plan.fileUnreadable':
    'Claude Code did not include the plan text, and its plan file could not be read. You can still approve or reject it; the terminal shows the plan.',
  'plan.file': 'Plan file:',
  'plan.approve': 'Approve',
  'plan.reject': 'Reject',
  'plan.rejectFeedback': 'What should change? (optional)',
  'plan.rejectTitle': 'Reject with feedback',

  'permission.title': 'Allow {tool}?',
  'permission.allow': 'Allow',
  'permission.deny': 'Deny',
  'permission.denyReason': 'Reason (optional)',
  'permission.command': 'Command',
  'permission.file': 'File',
  'permission.input': 'Input',

  'nav.inbox': 'Inbox',
  'nav.sessions': 'Sessions',
  'nav.history': 'History',
  'nav.settings': 'Settings',

  'pair.needed': 'Open a pairing link from “askaway pair” on your computer, or enter its address and code.',
  'pair.title': 'Pair this device',
  'pair.action': 'Pair',
  'pair.linkIntro': 'Pairing with {host}. Give this device a name you will recognise in the list of devices.',
  'pair.manualIntro':
    'Run “askaway pair” on the computer running Askaway. Open its link on this device, scan its QR code, or type its address and code here.',
  'pair.host': 'Host address',
  'pair.hostHint': 'Leave empty to use this address.',
  'pair.code': 'Pairing code',
  'pair.codeHint': 'Like ABCDE-FGHJK-MNPQR-STVWX. It works once.',
  'pair.device': 'Name this device',
  'pair.deviceHint': 'Shown in Settings → Devices and on the answers you give.',
  'pair.submit': 'Pair',
  'pair.pairing': 'Pairing…',
  'pair.saved': 'Paired. Connecting…',
  'pair.alreadyPaired':
    'This device is already paired with {host}. Pairing again adds it as a new device; revoke the old one in Settings → Devices.',
  'pair.invalidTitle': 'This pairing link no longer works',
  'pair.invalidBody':
    'A pairing link works once, for a few minutes, and not after the host restarts. This one was already used, has expired, or comes from an older version of Askaway.',
  'pair.invalidHow':
    'To get a new one, run “askaway pair” on the computer running Askaway, then open its link on this device or scan its QR code.',
  'pair.invalidUnchanged': 'Nothing changed: this device is still paired with {host}.',
  'pair.backToApp': 'Back to the app',
  'pair.enterCode': 'Enter a code instead',
  'pair.rateLimited': 'Too many pairing attempts. Wait a minute and try again.',
  'pair.refused': 'The host refused: {message}',

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

  'sessions.title': 'Sessions',
  'sessions.empty': 'No sessions yet. Sessions appear when an agent asks something.',
  'sessions.pendingCount': '{n} pending',
  'sessions.resolvedCount': '{n} resolved',
  'sessions.lastQuestion': 'Last: {q}',
  'sessions.statusPending': 'Waiting',
  'sessions.statusResolved': 'Resolved',

  'history.title': 'History',
  'history.empty': 'Answered and withdrawn questions appear here.',
  'history.filterSession': 'Session',
  'history.allSessions': 'All sessions',
  'history.reason': 'Reason: {r}',

  'outcome.answered': 'Answered',
  'outcome.partly': 'Partly answered ({n} of {m})',
  'outcome.skipped': 'Skipped',
  'outcome.auto': 'Auto-resolved',
  'outcome.declined': 'Declined',
  'outcome.cancelled': 'Cancelled',
  'outcome.otherDevice': 'Answered on another device',
  'outcome.withdrawn': 'Withdrawn by the agent',
  'outcome.approved': 'Approved',
  'outcome.rejected': 'Rejected',
  'outcome.allowed': 'Allowed',
  'outcome.denied': 'Denied',

  'settings.title': 'Settings',
  'settings.connection': 'Connection',
  'settings.host': 'Host',
  'settings.device': 'Name of this device',
  'settings.deviceHint': 'Shown in the list of devices and on the answers you give.',
  'settings.forget': 'Remove this device',
  'settings.forgetConfirm':
    'Remove this device from the host and forget it here? Pairing again needs a new link from “askaway pair”.',
  'settings.pairAgain': 'Pair with another host',
  'settings.devices': 'Devices',
  'settings.devicesHint':
    'Every phone and browser paired with this host. To add one, run “askaway pair” on the computer.',
  'settings.devicesOffline': 'Connect to manage devices.',
  'settings.thisDevice': 'This device',
  'settings.deviceOnline': 'Online now',
  'settings.deviceLastSeen': 'Last seen {time}',
  'settings.deviceNeverSeen': 'Not connected yet',
  'settings.devicePaired': 'Paired {date}',
  'settings.revoke': 'Revoke',
  'settings.revokeLabel': 'Revoke {name}',
  'settings.revokeTitle': 'Revoke {name}?',
  'settings.revokeHint': 'It is disconnected at once, its notifications stop, and it must pair again with a new link.',
  'settings.revokeFailed': 'Could not revoke the device. Check the connection.',
  'settings.autoResolution': 'Auto-resolution',
  'settings.autoToggle': 'Let the agent continue on its own',
  'settings.autoExplainOn':
    'When nobody answers within {t}, the agent continues on its best judgment. It is told you did not answer — silence is never taken as a preference.',
  'settings.autoExplainOff': 'Off: the agent waits for you as long as it takes.',
  'settings.autoTimeout': 'Wait before continuing',
  'settings.autoShared': 'Shared by every device connected to this host.',
  'settings.autoOffline': 'Connect to change this setting.',
  'settings.saveFailed': 'Could not save. Check the connection.',
  'settings.notifications': 'Notifications',
  'settings.language': 'Language',
  'settings.languageSystem': 'Follow the browser',
  'settings.theme': 'Theme',
  'settings.themeSystem': 'System',
  'settings.themeLight': 'Light',
  'settings.themeDark': 'Dark',
  'settings.about': 'About',
  'settings.appVersion': 'App version',
  'settings.hostVersion': 'Host version',
  'settings.protocolVersion': 'Protocol version',

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

  // Machines (R17): one hub, the phone, and every computer whose agents ask through it.
  'machine.label': 'Machine: {name}',
  'machine.prefix': 'Machine:',
  'machine.hub': 'hub',
  'machine.connectedOne': '1 agent connected',
  'machine.connected': '{n} agents connected',
  'machine.away': 'No agent connected · last seen {time}',
  'machine.awayNever': 'No agent connected yet',
  'machine.waitingFor': 'Waiting for {name} to come back',
  'machine.waitingForHint': 'You can answer now: your answer is kept on the hub and delivered when {name} is back.',
  'machine.deliveryWaits': 'Kept on the hub · delivered when {name} is back',
  'machine.filter': 'Machine',
  'machine.allMachines': 'All machines',
  'machine.summary': 'Machines',
  'settings.machines': 'Machines',
  'settings.machinesHint': 'Computers whose agents ask through this hub, and how many agents are connected now.',
  'settings.machinesEmpty': 'Only this hub so far.',
  'settings.machinesHowTo':
    'To add a computer, run “askaway invite” on the hub, then run the “askaway join …” command it prints on that computer.',
  'settings.machinesOffline': 'Connect to manage machines.',
  'settings.machineJoined': 'Joined {date}',
  'settings.machineThisHub': 'This hub',
  'settings.machineRevokeHint':
    'Its agents are disconnected at once and its waiting questions are withdrawn. To add it again, run “askaway invite” on the hub and “askaway join …” on it.',
  'settings.machineRevokeFailed': 'Could not revoke the machine. Check the connection.',
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
export type Lang = 'en' | 'zh';
export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

// English ships with every page; another language loads the first time a reader needs it, so each
// reader downloads only their own strings (R13.4).
const tables: Partial<Record<Lang, Messages>> = { en };
const loading = new Map<Lang, Promise<void>>();
const listeners = new Set<() => void>();
const translators = new Map<Lang, Translate>();

export const ENGLISH: Messages = en;

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
      const template = table[key];
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

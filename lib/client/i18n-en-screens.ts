import { addEnglish } from './i18n';

/**
 * English strings only the pairing, history and sessions screens show: they ship with those
 * screens, not with the inbox's or the card's first screen (R13.4). Each component that uses one imports
 * this file, as it imports its styles; lib/client/i18n-tables.test.ts checks that.
 */
export const enScreens = {
  'pair.title': 'Pair this device',
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
  'pair.alreadyPaired':
    'This device is already paired with {host}. Pairing again replaces its entry in Settings → Devices, keeping its name unless you change it.',
  'pair.pairedElsewhere':
    'This device is paired with {host}. Pairing with another host replaces that pairing here; {host} lists this device until you revoke it there.',
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
  'outcome.otherDevice': 'Answered on another device',
} as const;

addEnglish(enScreens);

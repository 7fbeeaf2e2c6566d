import { addEnglish } from './i18n';

/**
 * English strings only the settings, pairing, history and sessions screens show: they ship with those
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

addEnglish(enScreens);

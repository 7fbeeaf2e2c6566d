import { addEnglish } from './i18n';

/**
 * English strings only Settings shows: they ship with Settings, not with the other routes' first
 * screens (R13.4). Each component that uses one imports this file, as it imports its styles;
 * lib/client/i18n-tables.test.ts checks that.
 */
export const enSettings = {
  'settings.title': 'Settings',
  'settings.connection': 'Connection',
  'settings.host': 'Host',
  'settings.signedInAs': 'Signed in as',
  'settings.personNameEmail': '{name} ({email})',
  'settings.roleOwner': 'Owner',
  'settings.roleAdmin': 'Admin',
  'settings.roleMember': 'Member',
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
  'settings.deviceNtfy': 'ntfy: {url}',
  'settings.revoke': 'Revoke',
  'settings.revokeLabel': 'Revoke {name}',
  'settings.revokeTitle': 'Revoke {name}?',
  'settings.revokeHint': 'It is disconnected at once, its notifications stop, and it must pair again with a new link.',
  'settings.revokeFailed': 'Could not revoke the device. Check the connection.',
  'settings.away': 'Away',
  'settings.awayToggle': "I'm away from my desk",
  'settings.awayExplainOn':
    'Claude Code waits for your reply here after each turn (its terminal shows “running Stop hook”); a prompt typed in its terminal still goes first.',
  'settings.awayExplainOff':
    'Claude Code ends its turns at once; you still see them here, without a reply box. The other agents take a reply either way.',
  'settings.awayCli': 'Shared by every device; askaway away on / off does the same on the host.',
  'settings.autoResolution': 'Auto-resolution',
  'settings.autoToggle': 'Let the agent continue on its own',
  'settings.autoExplainOn':
    'When nobody answers within {t}, the agent continues on its best judgment. It is told you did not answer — silence is never taken as a preference.',
  'settings.autoExplainOff': 'Off: the agent waits for you as long as it takes.',
  'settings.autoTimeout': 'Wait before continuing',
  'settings.autoShared': 'Shared by every device connected to this host.',
  'settings.autoOffline': 'Connect to change this setting.',
  'settings.teamLocked': 'On this team hub only the owner and admins change this: it applies to everyone.',
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
  'settings.machinesNoneYours': 'No machine of yours or your groups’ yet.',
  'settings.machinesHowToTeam':
    'To add a computer, tap “Invite a machine” above, then run the command it shows on that computer.',
  'settings.machinesHowTo':
    'To add a computer, run “askaway invite” on the hub, then run the “askaway join …” command it prints on that computer.',
  'settings.machinesOffline': 'Connect to manage machines.',
  'settings.machineJoined': 'Joined {date}',
  'settings.machineThisHub': 'This hub',
  'settings.machineRevokeHint':
    'Its agents are disconnected at once and its waiting questions are withdrawn. To add it again, run “askaway invite” on the hub and “askaway join …” on it.',
  'settings.machineRevokeFailed': 'Could not revoke the machine. Check the connection.',
} as const;

addEnglish(enSettings);

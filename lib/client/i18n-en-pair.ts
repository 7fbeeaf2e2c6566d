import { addEnglish } from './i18n';

/**
 * English strings only the pairing page shows (R16.2, R16.3): they ship with it, not with the other routes'
 * first screens (R13.4). Each component that uses one imports this file; lib/client/i18n-tables.test.ts checks
 * that.
 */
export const enPair = {
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
  'pair.signIn': 'Sign in with your company account',
  'pair.signInHint': 'You sign in on your company’s page at {provider}, then this device is paired as yours.',
  'pair.signInOr': 'Or pair with a link from “askaway pair”:',
} as const;

addEnglish(enPair);

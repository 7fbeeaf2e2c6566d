import { addEnglish } from './i18n';

/** English strings of an agent's approval card (R18.3): they ship with that card's chunk only. */
export const enApproval = {
  'approval.command': 'Run this command?',
  'approval.fileChange': 'Change these files?',
  'approval.permissions': 'Allow more access?',
  'approval.tool': 'Allow {tool}?',
  'approval.reason': '{agent} says',
  'approval.in': 'in {cwd}',
  'approval.scope': 'It asks for',
  'approval.files': '{n} files',
  'approval.oneFile': '1 file',
  'approval.kindAdd': 'new',
  'approval.kindDelete': 'deleted',
  'approval.kindUpdate': 'changed',
  'approval.kindMove': 'moved',
  'approval.movedTo': 'to {path}',
  'approval.noDiff': 'The agent sent no diff for this file.',
  'approval.diffTruncated': 'The rest of this diff is only in the terminal.',
  'approval.denyTitle': 'Deny this?',
  'approval.denyReason': 'Why, or what to do instead (optional)',
  'approval.denyHint': 'The agent reads your reason.',
  'approval.cancelTitle': '{label}?',
  'approval.cancelConfirm': 'Yes, {label}',
} as const;

addEnglish(enApproval);

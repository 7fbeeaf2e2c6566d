import { type AuditAction, type AuditLine, type AuditTarget } from '../contracts/audit';
import { type MessageKey, type Translate } from './i18n';
import './i18n-en-team';

// How History's audit filter words a line of the record (R21.84, R21.85): who did what to what, from which device
// and address, refused attempts said so.

const ACTION_KEYS = {
  answer: 'audit.answer',
  skip: 'audit.skip',
  decline: 'audit.decline',
  'hand-over': 'audit.handOver',
  'sign-in': 'audit.signIn',
  pairing: 'audit.pairing',
  'device-revoked': 'audit.deviceRevoked',
  'machine-joined': 'audit.machineJoined',
  'machine-revoked': 'audit.machineRevoked',
  'join-code-minted': 'audit.joinCodeMinted',
  'role-changed': 'audit.roleChanged',
  'person-removed': 'audit.personRemoved',
  'group-saved': 'audit.groupSaved',
  'group-removed': 'audit.groupRemoved',
} as const satisfies Record<AuditAction, MessageKey>;

const TARGET_KEYS = {
  question: 'audit.targetQuestion',
  person: 'audit.targetPerson',
  device: 'audit.targetDevice',
  machine: 'audit.targetMachine',
  group: 'audit.targetGroup',
} as const satisfies Record<AuditTarget['kind'], MessageKey>;

const VIA_KEYS = {
  app: 'audit.viaApp',
  notification: 'audit.viaNotification',
  api: 'audit.viaApi',
  cli: 'audit.viaCli',
  'sign-in': 'audit.viaSignIn',
  join: 'audit.viaJoin',
} as const satisfies Record<AuditLine['actor']['via'], MessageKey>;

/**
 * "Ana Lima answered question “Which database?”", "The hub’s operator removed Ben Ortiz". `questionTitle`: what the
 * app knows a question asked (the hub's record names only its tool).
 */
export function auditSentence(
  line: AuditLine,
  t: Translate,
  questionTitle: (requestId: string) => string | undefined = () => undefined,
): string {
  const person = line.actor.personName ?? line.actor.personId;
  const who = person ?? t('audit.operator');
  const { target: of } = line;
  const name = of && ((of.kind === 'question' ? questionTitle(of.id) : undefined) ?? of.name ?? of.id);
  const target = of && name !== undefined ? t(TARGET_KEYS[of.kind], { name }) : '';
  // A machine joins by itself with its code: it is a person's when the code was minted for one, else a group's or
  // the owner's, never something the operator did at that moment.
  if (line.action === 'machine-joined') {
    const sentence = t(person !== undefined ? 'audit.machineJoinedFor' : 'audit.machineJoined', { who, target });
    return sentence.charAt(0).toUpperCase() + sentence.slice(1);
  }
  return t(ACTION_KEYS[line.action], { who, target }).trim();
}

/** "from Pixel 8 · 203.0.113.7 · the app": where it came from, what the hub knows of it. */
export function auditSource(line: AuditLine, t: Translate): string {
  const { actor } = line;
  const device = actor.deviceName ?? actor.deviceId;
  return [device ? t('audit.fromDevice', { device }) : undefined, actor.address, t(VIA_KEYS[actor.via])]
    .filter((part) => part !== undefined && part !== '')
    .join(' · ');
}

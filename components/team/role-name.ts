import { type PersonRole } from '@/lib/contracts/people';
import { type MessageKey } from '@/lib/client/i18n';
import '@/lib/client/i18n-en-settings';

/** The words of each role, Settings' own (R21.33). */
export const ROLE_KEYS = {
  owner: 'settings.roleOwner',
  admin: 'settings.roleAdmin',
  member: 'settings.roleMember',
} as const satisfies Record<PersonRole, MessageKey>;

'use client';
import { useI18n } from '@/hooks/use-i18n';
import { type PersonRef, type PersonRole } from '@/lib/contracts/people';
import '@/lib/client/i18n-en-settings';

const ROLE_KEYS = {
  owner: 'settings.roleOwner',
  admin: 'settings.roleAdmin',
  member: 'settings.roleMember',
} as const satisfies Record<PersonRole, string>;

/** "Signed in as Ana Lima (ana@example.com) · Owner" (R21.33): whose this device is, on a team hub. */
export function SignedInRow({ person }: { person: PersonRef }) {
  const { t } = useI18n();
  const who =
    person.name && person.email
      ? t('settings.personNameEmail', { name: person.name, email: person.email })
      : (person.name ?? person.email ?? person.id);
  return (
    <div className="settings__row settings__row--stack" data-testid="settings.signed-in">
      <span className="settings__label">{t('settings.signedInAs')}</span>
      <span className="settings__value settings__value--start">
        <bdi>{who}</bdi> · {t(ROLE_KEYS[person.role])}
      </span>
    </div>
  );
}

'use client';
import { useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { useNow } from '@/hooks/use-now';
import { personName } from '@/lib/client/person-name';
import { type TeamPerson, type TeamView } from '@/lib/contracts/team-api';
import { formatStamp } from '@/lib/client/format';
import { type Pairing } from '@/lib/client/pairing';
import { changeRole, removePerson } from '@/lib/client/team-loader';
import { ConfirmDialog } from '../card/confirm-dialog';
import { ROLE_KEYS } from './role-name';
import '@/lib/client/i18n-en-settings';
import '@/lib/client/i18n-en-team';
import '@/app/styles/settings.css';
import '@/app/styles/team.css';

/**
 * Settings → People (R21.78, R21.79): everyone on the hub for an owner's or admin's device, with their role, last
 * sign-in and whether they were removed; a role changes between admin and member, and a person is removed after a
 * confirmation saying what it does. A member sees themselves. Each change is the hub's; the list is read again after.
 */
export function PeopleSettings({
  team,
  pairing,
  onChanged,
}: {
  team: TeamView;
  pairing: Pairing;
  onChanged: () => Promise<void>;
}) {
  const { t, lang } = useI18n();
  const now = useNow('minute');
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<TeamPerson | null>(null);
  const people = [...team.people].sort(
    (a, b) =>
      Number(a.removedAt !== undefined) - Number(b.removedAt !== undefined) ||
      Number(b.id === team.me?.id) - Number(a.id === team.me?.id) ||
      personName(a).localeCompare(personName(b)),
  );

  const act = (person: TeamPerson, what: () => Promise<void>) => {
    setBusy(person.id);
    setError(null);
    what()
      .then(onChanged)
      .catch((failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)))
      .finally(() => setBusy(null));
  };

  return (
    <section className="settings__section" aria-labelledby="s-people" data-testid="settings.people">
      <h2 id="s-people" className="settings__title">
        {t('team.people')}
      </h2>
      <div className="settings__group">
        <ul className="devices" aria-labelledby="s-people">
          {people.map((person) => {
            const removed = person.removedAt !== undefined;
            const manageable = team.canManage && !removed && person.role !== 'owner';
            const name = personName(person);
            return (
              <li
                key={person.id}
                className="devices__item team-person"
                data-testid="settings.person-row"
                data-person-id={person.id}
                data-role={person.role}
                data-removed={removed ? 'true' : undefined}
              >
                <div className="devices__main">
                  <span className="devices__name">
                    <bdi className="devices__label">{name}</bdi>
                    {person.id === team.me?.id ? <span className="badge">{t('team.you')}</span> : null}
                    <span className={`team-role team-role--${person.role}`} data-testid="settings.person-role">
                      {t(ROLE_KEYS[person.role])}
                    </span>
                  </span>
                  {person.email && person.email !== name ? <bdi className="devices__meta">{person.email}</bdi> : null}
                  <span className="devices__meta" data-testid="settings.person-seen">
                    {removed && person.removedAt
                      ? t('team.removedAt', { date: formatStamp(person.removedAt, lang, now) })
                      : person.lastSignInAt
                        ? t('team.lastSignIn', { date: formatStamp(person.lastSignInAt, lang, now) })
                        : t('team.neverSignedIn')}
                  </span>
                </div>
                {manageable ? (
                  <div className="team-person__actions">
                    <button
                      type="button"
                      className="button"
                      disabled={busy !== null}
                      aria-label={t(person.role === 'admin' ? 'team.makeMemberLabel' : 'team.makeAdminLabel', {
                        name,
                      })}
                      onClick={() =>
                        act(person, () => changeRole(pairing, person.id, person.role === 'admin' ? 'member' : 'admin'))
                      }
                      data-testid="settings.person-role-change"
                    >
                      {busy === person.id
                        ? t('team.saving')
                        : t(person.role === 'admin' ? 'team.makeMember' : 'team.makeAdmin')}
                    </button>
                    {person.id === team.me?.id ? null : (
                      <button
                        type="button"
                        className="button button--danger"
                        disabled={busy !== null}
                        aria-label={t('team.removeLabel', { name })}
                        onClick={() => setRemoving(person)}
                        data-testid="settings.person-remove"
                      >
                        {t('team.remove')}
                      </button>
                    )}
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
        {error ? (
          <p className="form__error" role="alert" data-testid="settings.people-error">
            {t('team.changeFailed', { message: error })}
          </p>
        ) : null}
        <p className="settings__explain form__hint">
          {team.canManage ? t('team.peopleHint') : t('team.peopleMemberHint')}
        </p>
      </div>
      <ConfirmDialog
        open={removing !== null}
        title={t('team.removeTitle', { name: removing ? personName(removing) : '' })}
        hint={t('team.removeHint')}
        confirmLabel={t('team.remove')}
        cancelLabel={t('common.cancel')}
        danger
        testId="settings.person-remove-dialog"
        onClose={() => setRemoving(null)}
        onConfirm={() => {
          const person = removing;
          setRemoving(null);
          if (person) act(person, () => removePerson(pairing, person.id));
        }}
      />
    </section>
  );
}

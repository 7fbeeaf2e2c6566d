'use client';
import { useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { type GroupRecord } from '@/lib/contracts/people';
import { personName } from '@/lib/client/person-name';
import { type TeamView } from '@/lib/contracts/team-api';
import { type Pairing } from '@/lib/client/pairing';
import { removeGroup } from '@/lib/client/team-loader';
import { ConfirmDialog } from '../card/confirm-dialog';
import { IconGroup } from '../icons/people';
import { GroupDialog } from './group-dialog';
import { InviteMachineButton } from './invite-machine';
import '@/lib/client/i18n-en-team';
import '@/app/styles/settings.css';
import '@/app/styles/team.css';

/**
 * Settings → Groups (R21.80, R21.81): the groups a shared machine can belong to, with their members and the
 * provider's group; an owner or admin creates, changes and removes them and invites a group's machine. A member sees
 * the groups they are in.
 */
export function GroupsSettings({
  team,
  pairing,
  onChanged,
}: {
  team: TeamView;
  pairing: Pairing;
  onChanged: () => Promise<void>;
}) {
  const { t } = useI18n();
  const [editing, setEditing] = useState<GroupRecord | 'new' | null>(null);
  const [removing, setRemoving] = useState<GroupRecord | null>(null);
  const [error, setError] = useState<string | null>(null);
  const names = new Map(team.people.map((person) => [person.id, personName(person)]));
  const groups = [...team.groups].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <section className="settings__section" aria-labelledby="s-groups" data-testid="settings.groups">
      <h2 id="s-groups" className="settings__title">
        {t('team.groups')}
      </h2>
      <div className="settings__group">
        {groups.length > 0 ? (
          <ul className="devices" aria-labelledby="s-groups">
            {groups.map((group) => {
              const members = group.members.map((id) => names.get(id) ?? id);
              return (
                <li
                  key={group.id}
                  className="devices__item team-group"
                  data-testid="settings.group-row"
                  data-group-id={group.id}
                >
                  <div className="devices__main">
                    <span className="devices__name">
                      <IconGroup size={16} />
                      <bdi className="devices__label">{group.name}</bdi>
                    </span>
                    <span className="devices__meta" data-testid="settings.group-members">
                      {members.length === 0 ? t('team.noMembers') : members.join(', ')}
                    </span>
                    {group.providerGroup ? (
                      <span className="devices__meta">
                        {t('team.fromProviderGroup', { group: group.providerGroup })}
                      </span>
                    ) : null}
                  </div>
                  {team.canManage ? (
                    <div className="team-person__actions">
                      <InviteMachineButton pairing={pairing} group={group} />
                      <button
                        type="button"
                        className="button"
                        aria-label={t('team.editGroupLabel', { name: group.name })}
                        onClick={() => setEditing(group)}
                        data-testid="settings.group-edit"
                      >
                        {t('team.edit')}
                      </button>
                      <button
                        type="button"
                        className="button button--danger"
                        aria-label={t('team.removeGroupLabel', { name: group.name })}
                        onClick={() => {
                          setError(null);
                          setRemoving(group);
                        }}
                        data-testid="settings.group-remove"
                      >
                        {t('team.remove')}
                      </button>
                    </div>
                  ) : null}
                </li>
              );
            })}
          </ul>
        ) : (
          <p className="settings__row" data-testid="settings.groups-empty">
            {team.canManage ? t('team.noGroups') : t('team.noGroupsMember')}
          </p>
        )}
        {error ? (
          <p className="form__error" role="alert" data-testid="settings.groups-error">
            {t('team.changeFailed', { message: error })}
          </p>
        ) : null}
        {team.canManage ? (
          <div className="settings__row settings__row--buttons">
            <button type="button" className="button" onClick={() => setEditing('new')} data-testid="settings.group-new">
              {t('team.newGroup')}
            </button>
          </div>
        ) : null}
        <p className="settings__explain form__hint">{t('team.groupsHint')}</p>
      </div>
      {editing !== null ? (
        <GroupDialog
          group={editing === 'new' ? null : editing}
          team={team}
          pairing={pairing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void onChanged();
          }}
        />
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        title={t('team.removeGroupTitle', { name: removing?.name ?? '' })}
        hint={t('team.removeGroupHint')}
        confirmLabel={t('team.remove')}
        cancelLabel={t('common.cancel')}
        danger
        testId="settings.group-remove-dialog"
        onClose={() => setRemoving(null)}
        onConfirm={() => {
          const group = removing;
          setRemoving(null);
          if (group)
            removeGroup(pairing, group.id)
              .then(onChanged)
              .catch((failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)));
        }}
      />
    </section>
  );
}

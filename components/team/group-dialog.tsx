'use client';
import { useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { type GroupRecord } from '@/lib/contracts/people';
import { type TeamView } from '@/lib/contracts/team-api';
import { type Pairing } from '@/lib/client/pairing';
import { saveGroup } from '@/lib/client/team-loader';
import { PeoplePicker } from './people-picker';
import { TeamDialog } from './team-dialog';
import '@/lib/client/i18n-en-team';
import '@/app/styles/forms.css';

/**
 * Creating or changing a group (R21.81): its name, its members (picked from the people), and optionally the
 * provider's group whose members belong to it too. The input is checked with the contract's schema before it goes;
 * the hub's refusal is shown in the dialog, which stays open.
 */
export function GroupDialog({
  group,
  team,
  pairing,
  onClose,
  onSaved,
}: {
  /** null: a new group. */
  group: GroupRecord | null;
  team: TeamView;
  pairing: Pairing;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useI18n();
  const [name, setName] = useState(group?.name ?? '');
  const [providerGroup, setProviderGroup] = useState(group?.providerGroup ?? '');
  const [members, setMembers] = useState<ReadonlySet<string>>(new Set(group?.members ?? []));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const people = team.people.filter((person) => person.removedAt === undefined || members.has(person.id));
  return (
    <TeamDialog
      open
      title={group ? t('team.editGroupTitle', { name: group.name }) : t('team.newGroupTitle')}
      testId="settings.group-dialog"
      onClose={onClose}
      onSubmit={() => {
        if (name.trim() === '') {
          setError(t('team.groupNameNeeded'));
          return;
        }
        const input = {
          name,
          members: [...members],
          ...(providerGroup.trim() === '' ? {} : { providerGroup }),
        };
        setSaving(true);
        setError(null);
        saveGroup(pairing, input, group?.id).then(
          () => {
            setSaving(false);
            onSaved();
          },
          (failure: unknown) => {
            setSaving(false);
            setError(t('team.changeFailed', { message: failure instanceof Error ? failure.message : String(failure) }));
          },
        );
      }}
      actions={
        <>
          <button type="button" className="button button--ghost" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={saving} data-testid="settings.group-save">
            {saving ? t('team.saving') : t('team.saveGroup')}
          </button>
        </>
      }
    >
      <label className="note">
        <span className="note__label">{t('team.groupName')}</span>
        <input
          className="field"
          type="text"
          maxLength={80}
          aria-invalid={error !== null && name.trim() === '' ? true : undefined}
          value={name}
          onChange={(event) => setName(event.target.value)}
          data-testid="settings.group-name"
        />
      </label>
      <PeoplePicker
        people={people}
        chosen={members}
        multiple
        legend={t('team.groupMembers')}
        onChange={setMembers}
        testId="settings.group-member"
      />
      <label className="note">
        <span className="note__label">{t('team.providerGroup')}</span>
        <input
          className="field"
          type="text"
          maxLength={320}
          value={providerGroup}
          onChange={(event) => setProviderGroup(event.target.value)}
          data-testid="settings.group-provider"
        />
        <span className="form__hint">{t('team.providerGroupHint')}</span>
      </label>
      {error ? (
        <p className="form__error" role="alert" data-testid="settings.group-error">
          {error}
        </p>
      ) : null}
    </TeamDialog>
  );
}

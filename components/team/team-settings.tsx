'use client';
import { useI18n } from '@/hooks/use-i18n';
import { usePairing } from '@/hooks/use-pairing';
import { useRemote } from '@/hooks/use-remote';
import { useTeam } from '@/hooks/use-team';
import { teamStore } from '@/lib/client/team-store';
import { GroupsSettings } from './groups-settings';
import { InviteMachineButton } from './invite-machine';
import { PeopleSettings } from './people-settings';
import '@/lib/client/i18n-en-team';
import '@/app/styles/settings.css';

/**
 * Settings on a team hub (R21.78–R21.82): inviting one's own machine, People and Groups. Its own chunk, loaded only
 * once the hub has said it signs people in; a personal hub's Settings never load it and stay as they were.
 */
export function TeamSettings() {
  const { t } = useI18n();
  const pairing = usePairing();
  const state = useRemote();
  const team = useTeam(pairing, state.status === 'connected');
  if (!pairing || !team) return null;
  const changed = () => teamStore.refresh(pairing);
  return (
    <>
      {team.me ? (
        <section className="settings__section" aria-labelledby="s-invite" data-testid="settings.invite">
          <h2 id="s-invite" className="settings__title">
            {t('team.yourMachines')}
          </h2>
          <div className="settings__group">
            <div className="settings__row settings__row--stack">
              <span className="form__hint">{t('team.yourMachinesHint')}</span>
              <div>
                <InviteMachineButton pairing={pairing} />
              </div>
            </div>
          </div>
        </section>
      ) : null}
      <PeopleSettings team={team} pairing={pairing} onChanged={changed} />
      <GroupsSettings team={team} pairing={pairing} onChanged={changed} />
    </>
  );
}

'use client';
import { useI18n } from '@/hooks/use-i18n';
import { useNow } from '@/hooks/use-now';
import { type MachineInfo } from '@/lib/contracts';
import { formatStamp } from '@/lib/client/format';
import { MachineRequestError } from '@/lib/client/machine-request-error';
import { revokeMachine } from '@/lib/client/machine-requests-loader';
import { MachineChip } from '../machine-chip';
import { MachineState } from '../machine-state';
import { RevokeButton, RevokeConfirmation, useRevocation } from './revocation';
import '@/lib/client/i18n-en-settings';
import '@/app/styles/settings.css';

/**
 * Settings → Machines (R17.5, R17.2): the hub and every joined machine, when each joined, whether
 * its agents are connected now or when it was last seen; any joined machine can be revoked here.
 * The list is the hub's live one, so a machine joining, leaving or revoked elsewhere shows at once.
 */
export function MachinesSettings({
  machines,
  live,
  clockOffsetMs,
  member = false,
}: {
  machines: readonly MachineInfo[];
  live: boolean;
  clockOffsetMs: number;
  /** A member's device on a team hub: its list holds only its person's and groups' machines (R21.53). */
  member?: boolean;
}) {
  const { t, lang } = useI18n();
  const now = useNow('minute');
  const revocation = useRevocation((machine: MachineInfo) =>
    revokeMachine(machine.id).catch((error: unknown) => {
      // Revoked meanwhile (another device, the hub's terminal): the list already says so.
      if (!(error instanceof MachineRequestError && error.code === 'unknown-machine')) throw error;
    }),
  );
  const joined = machines.filter((machine) => machine.kind === 'joined');

  return (
    <section className="settings__section" aria-labelledby="s-machines" data-testid="settings.machines">
      <h2 id="s-machines" className="settings__title">
        {t('settings.machines')}
      </h2>
      <div className="settings__group">
        {machines.length > 0 ? (
          <ul className="devices" aria-labelledby="s-machines">
            {machines.map((machine) => {
              const hub = machine.kind === 'hub';
              return (
                <li
                  key={machine.id}
                  className="devices__item"
                  data-testid="settings.machine-row"
                  data-machine-id={machine.id}
                  data-hub={hub ? 'true' : undefined}
                >
                  <div className="devices__main">
                    <span className="devices__name">
                      <MachineChip machine={machine} />
                      {hub ? <span className="badge">{t('settings.machineThisHub')}</span> : null}
                    </span>
                    {machine.joinedAt && now !== 0 ? (
                      <span className="devices__meta">
                        {t('settings.machineJoined', { date: formatStamp(machine.joinedAt, lang, now) })}
                      </span>
                    ) : null}
                    <span className="devices__meta">
                      <MachineState info={machine} live={live} clockOffsetMs={clockOffsetMs} />
                    </span>
                  </div>
                  {hub ? null : (
                    <RevokeButton
                      item={machine}
                      revocation={revocation}
                      disabled={!live}
                      testId="settings.machine-revoke"
                    />
                  )}
                </li>
              );
            })}
          </ul>
        ) : null}
        {live && joined.length === 0 ? (
          <p className="settings__explain" data-testid="settings.machines-empty">
            {t(member ? 'settings.machinesNoneYours' : 'settings.machinesEmpty')}
          </p>
        ) : null}
        <p className="settings__explain form__hint">
          {live
            ? `${joined.length > 0 ? `${t('settings.machinesHint')} ` : ''}${t(member ? 'settings.machinesHowToTeam' : 'settings.machinesHowTo')}`
            : t('settings.machinesOffline')}
        </p>
        <RevokeConfirmation
          revocation={revocation}
          hint={t('settings.machineRevokeHint')}
          failedText={t('settings.machineRevokeFailed')}
          testId="settings.machine-revoke-dialog"
          errorTestId="settings.machine-revoke-error"
        />
      </div>
    </section>
  );
}

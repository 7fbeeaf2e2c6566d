'use client';
import { useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { useNow } from '@/hooks/use-now';
import { type JoinCodeResponse } from '@/lib/contracts/machines';
import { type GroupRecord } from '@/lib/contracts/people';
import { formatStamp } from '@/lib/client/format';
import { type Pairing } from '@/lib/client/pairing';
import { mintJoinCode } from '@/lib/client/team-loader';
import { IconMachine } from '../icons/machines';
import { TeamDialog } from './team-dialog';
import '@/lib/client/i18n-en-team';
import '@/app/styles/team.css';

type Invite = { phase: 'minting' } | { phase: 'ready'; code: JoinCodeResponse } | { phase: 'failed'; message: string };

/**
 * "Invite a machine" (R21.82): a join code for this device's person's own machine, or (`group`) for a group's shared
 * one, minted by the hub when asked (`POST /api/device/join-codes`). The dialog shows the `askaway join …` command to
 * run on that machine, a copy button and when the code expires; a refusal (too many codes, a device of nobody's)
 * says the hub's words.
 */
export function InviteMachineButton({ pairing, group }: { pairing: Pairing; group?: GroupRecord }) {
  const { t, lang } = useI18n();
  const now = useNow('minute');
  const [invite, setInvite] = useState<Invite | null>(null);
  const [copied, setCopied] = useState(false);
  const start = () => {
    setCopied(false);
    setInvite({ phase: 'minting' });
    mintJoinCode(pairing, group?.id).then(
      (code) => setInvite({ phase: 'ready', code }),
      (failure: unknown) =>
        setInvite({ phase: 'failed', message: failure instanceof Error ? failure.message : String(failure) }),
    );
  };
  const copy = (command: string) => {
    void navigator.clipboard?.writeText(command).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <>
      <button
        type="button"
        className="button"
        aria-label={group ? t('team.inviteGroupMachineLabel', { name: group.name }) : undefined}
        onClick={start}
        data-testid={group ? 'settings.group-invite' : 'settings.invite-machine'}
      >
        <IconMachine size={18} />
        {t('team.inviteMachine')}
      </button>
      <TeamDialog
        open={invite !== null}
        title={group ? t('team.inviteGroupTitle', { name: group.name }) : t('team.inviteTitle')}
        hint={group ? t('team.inviteGroupHint', { name: group.name }) : t('team.inviteHint')}
        testId="settings.invite-dialog"
        onClose={() => setInvite(null)}
        actions={
          <button type="button" className="button button--primary" onClick={() => setInvite(null)}>
            {t('team.done')}
          </button>
        }
      >
        {invite?.phase === 'minting' ? (
          <p className="state state--queued" role="status" data-testid="settings.invite-minting">
            {t('team.inviteMinting')}
          </p>
        ) : null}
        {invite?.phase === 'ready' ? (
          <div className="invite" data-testid="settings.invite-ready">
            <pre className="invite__command mono" data-testid="settings.invite-command">
              {invite.code.command}
            </pre>
            <div className="invite__row">
              <button
                type="button"
                className="button"
                onClick={() => copy(invite.code.command)}
                data-testid="settings.invite-copy"
              >
                {copied ? t('team.copied') : t('team.copy')}
              </button>
              <span className="form__hint" data-testid="settings.invite-expiry">
                {t('team.inviteExpires', { time: formatStamp(invite.code.expiresAt, lang, now) })}
              </span>
            </div>
            <span role="status" className="sr-only">
              {copied ? t('team.copied') : ''}
            </span>
          </div>
        ) : null}
        {invite?.phase === 'failed' ? (
          <>
            <p className="form__error" role="alert" data-testid="settings.invite-error">
              {t('team.inviteFailed', { message: invite.message })}
            </p>
            <button type="button" className="button" onClick={start}>
              {t('team.tryAgain')}
            </button>
          </>
        ) : null}
      </TeamDialog>
    </>
  );
}

'use client';
import { useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { type InteractionView } from '@/lib/contracts';
import { type TeamView } from '@/lib/contracts/team-api';
import { type Pairing } from '@/lib/client/pairing';
import { handOver } from '@/lib/client/team-loader';
import { PeoplePicker } from './people-picker';
import { TeamDialog } from './team-dialog';
import '@/lib/client/i18n-en-team';

/**
 * "Hand over…" (R21.77): an owner or admin gives a waiting question to someone else. The hub writes the hand-over
 * and the card follows from the log ("Handed to Ben by Ana"); a refusal keeps the dialog open with the hub's words.
 */
export function HandOverDialog({
  open,
  view,
  team,
  pairing,
  onClose,
  onDone,
}: {
  open: boolean;
  view: InteractionView;
  team: TeamView;
  pairing: Pairing;
  onClose: () => void;
  onDone: (toName: string) => void;
}) {
  const { t } = useI18n();
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const holder = view.handedOver?.to.id ?? (view.askedFor?.kind === 'person' ? view.askedFor.id : undefined);
  const people = team.people.filter((person) => person.removedAt === undefined && person.id !== holder);
  const [toPersonId] = [...chosen];
  const close = () => {
    setChosen(new Set());
    setError(null);
    onClose();
  };
  return (
    <TeamDialog
      open={open}
      title={t('team.handOverTitle')}
      hint={t('team.handOverHint')}
      testId="card.hand-over-dialog"
      onClose={close}
      onSubmit={() => {
        const to = people.find((person) => person.id === toPersonId);
        if (!to || sending) return;
        setSending(true);
        setError(null);
        handOver(pairing, view.requestId, to.id).then(
          () => {
            setSending(false);
            setChosen(new Set());
            onDone(to.name ?? to.email ?? to.id);
          },
          (failure: unknown) => {
            setSending(false);
            setError(failure instanceof Error ? failure.message : String(failure));
          },
        );
      }}
      actions={
        <>
          <button type="button" className="button button--ghost" onClick={close}>
            {t('common.cancel')}
          </button>
          <button
            type="submit"
            className="button button--primary"
            disabled={toPersonId === undefined || sending}
            data-testid="card.hand-over-confirm"
          >
            {sending ? t('team.handingOver') : t('team.handOver')}
          </button>
        </>
      }
    >
      {people.length === 0 ? (
        <p className="team-empty">{t('team.nobodyToHandTo')}</p>
      ) : (
        <PeoplePicker
          people={people}
          chosen={chosen}
          multiple={false}
          legend={t('team.handOverTo')}
          onChange={setChosen}
          testId="card.hand-over-person"
        />
      )}
      {error ? (
        <p className="form__error" role="alert" data-testid="card.hand-over-error">
          {t('team.handOverFailed', { message: error })}
        </p>
      ) : null}
    </TeamDialog>
  );
}

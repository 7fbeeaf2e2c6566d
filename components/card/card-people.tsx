'use client';
import { useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { lazyPart } from '@/hooks/use-lazy-part';
import { usePairing } from '@/hooks/use-pairing';
import { useRemote } from '@/hooks/use-remote';
import { useTeam } from '@/hooks/use-team';
import { type InteractionView } from '@/lib/contracts';
import { HandedOverNote } from '../handed-over-note';
import { IconHandOver } from '../icons/people';
import '@/lib/client/i18n-en-card';
import '@/app/styles/team.css';

// The picker is an owner's or admin's, opened now and then: its own chunk.
const handOverDialog = lazyPart(() => import('../team/hand-over-dialog').then((module) => module.HandOverDialog));

/**
 * A team hub's card under its chips (R21.22, R21.77): "Handed to you by Ana" when an admin handed it over, and for an
 * owner's or admin's device, "Hand over…" on a waiting question. Nothing on a personal hub's cards.
 */
export function CardPeople({ view }: { view: InteractionView }) {
  const { t } = useI18n();
  const pairing = usePairing();
  const state = useRemote();
  const connected = state.status === 'connected';
  const teamHub = view.askedFor !== undefined || view.handedOver !== undefined;
  const team = useTeam(teamHub ? pairing : null, connected);
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const canHandOver = view.status === 'pending' && team?.canManage === true && pairing !== null;
  if (!view.handedOver && !canHandOver && !done) return null;
  return (
    <div className="card-people" data-testid="card.people">
      {view.handedOver ? <HandedOverNote handedOver={view.handedOver} /> : null}
      {done ? (
        <p className="state state--ok" role="status" data-testid="card.handed-over-status">
          {t('card.handedOverTo', { name: done })}
        </p>
      ) : null}
      {canHandOver ? (
        <button
          type="button"
          className="button card-people__hand-over"
          disabled={!connected}
          onClick={() => {
            setDone(null);
            setOpen(true);
            void handOverDialog.preload().catch(() => undefined);
          }}
          data-testid="card.hand-over"
        >
          <IconHandOver size={18} />
          {t('card.handOver')}
        </button>
      ) : null}
      {canHandOver && team && pairing && open ? (
        <handOverDialog.Slot
          open={open}
          view={view}
          team={team}
          pairing={pairing}
          onClose={() => setOpen(false)}
          onDone={(name) => {
            setOpen(false);
            setDone(name);
          }}
        />
      ) : null}
    </div>
  );
}

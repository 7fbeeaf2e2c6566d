'use client';
import { useI18n } from '@/hooks/use-i18n';
import { type MachineInfo } from '@/lib/contracts';
import { MachineChip } from '../machine-chip';
import { MachineState } from '../machine-state';
import '@/lib/client/i18n-en-inbox';

/**
 * Nothing waits: which machines are there to ask (R17.5). Only in the empty inbox, where it answers
 * "is my agent even connected?"; a machine with nothing waiting never takes room above questions.
 */
export function MachinesSummary({
  machines,
  live,
  clockOffsetMs,
}: {
  machines: readonly MachineInfo[];
  live: boolean;
  clockOffsetMs: number;
}) {
  const { t } = useI18n();
  if (!live || machines.length === 0) return null;
  return (
    <section className="machines-summary" aria-labelledby="machines-summary" data-testid="inbox.machines">
      <h3 id="machines-summary" className="machines-summary__title">
        {t('machine.summary')}
      </h3>
      <ul className="machines-summary__list">
        {machines.map((machine) => (
          <li
            key={machine.id}
            className="machines-summary__item"
            data-testid="inbox.machines-row"
            data-machine-id={machine.id}
          >
            <MachineChip machine={machine} />
            <MachineState info={machine} live={live} clockOffsetMs={clockOffsetMs} />
          </li>
        ))}
      </ul>
    </section>
  );
}

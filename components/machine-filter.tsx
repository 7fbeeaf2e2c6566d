'use client';
import { useI18n } from '@/hooks/use-i18n';
import { LOCAL_MACHINE_ID } from '@/lib/contracts/machine-keys';
import { setMachineFilter } from '@/lib/client/machine-filter';
import { type MachineOption } from '@/lib/client/machine-selectors';
import { IconHub, IconMachine } from './icons/machines';
import { IconCheck } from './icons/shell';
import '@/app/styles/machine-filter.css';

/**
 * Sessions and History by machine (R17.3): one tap per machine, as radio buttons shaped like chips
 * (arrow keys move between them). The chosen one shows a check mark, not only a colour; the choice
 * is remembered on this device for both screens.
 */
export function MachineFilter({
  name,
  options,
  value,
}: {
  name: string;
  options: readonly MachineOption[];
  value: string;
}) {
  const { t } = useI18n();
  const choices = [{ id: '', name: t('machine.allMachines'), kind: 'all' as const }, ...options];
  return (
    <fieldset className="machine-filter" data-testid="machine-filter">
      <legend className="machine-filter__legend">{t('machine.filter')}</legend>
      <div className="machine-filter__options">
        {choices.map((choice) => {
          const checked = choice.id === value;
          const Icon = checked ? IconCheck : choice.id === LOCAL_MACHINE_ID ? IconHub : IconMachine;
          return (
            <label
              key={choice.id || 'all'}
              className="machine-filter__option"
              data-testid="machine-filter.option"
              data-machine-id={choice.id}
              data-checked={checked ? 'true' : undefined}
            >
              <input
                type="radio"
                className="machine-filter__input"
                name={name}
                value={choice.id}
                checked={checked}
                onChange={() => setMachineFilter(choice.id)}
              />
              {choice.kind === 'all' && !checked ? null : <Icon size={16} />}
              <span className="machine-filter__text">{choice.name}</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

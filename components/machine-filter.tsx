'use client';
import { useI18n } from '@/hooks/use-i18n';
import { LOCAL_MACHINE_ID } from '@/lib/contracts/machine-keys';
import { machineFilter } from '@/lib/client/remembered-choice';
import { type MachineOption } from '@/lib/client/filter-options';
import { ChipFilter } from './chip-filter';
import { IconHub, IconMachine } from './icons/machines';
import '@/lib/client/i18n-en-screens';

/** Sessions and History by machine (R17.3), the choice remembered on this device for both screens. */
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
  const choices = [
    { id: '', name: t('machine.allMachines') },
    ...options.map((option) => ({
      id: option.id,
      name: option.name,
      Icon: option.id === LOCAL_MACHINE_ID ? IconHub : IconMachine,
    })),
  ];
  return (
    <ChipFilter
      testId="machine-filter"
      legend={t('machine.filter')}
      name={name}
      choices={choices}
      value={value}
      onChange={machineFilter.set}
    />
  );
}

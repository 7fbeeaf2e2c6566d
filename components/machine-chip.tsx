import { useI18n } from '@/hooks/use-i18n';
import { type MachineRef } from '@/lib/contracts';
import { LOCAL_MACHINE_ID } from '@/lib/contracts/machine-keys';
import { IconHub, IconMachine } from './icons/machines';

/**
 * Which machine a prompt came from (R17.3): its name beside a computer icon (the hub's own agents
 * get the hub's icon), outlined so it never reads as the question's header chip. Screen readers
 * hear "Machine: laptop".
 */
export function MachineChip({ machine }: { machine: MachineRef }) {
  const { t } = useI18n();
  const label = t('machine.label', { name: machine.name });
  const Icon = machine.id === LOCAL_MACHINE_ID ? IconHub : IconMachine;
  return (
    <span className="chip chip--machine" data-testid="machine-chip" data-machine-id={machine.id} title={label}>
      <Icon size={14} />
      <span className="sr-only">{t('machine.prefix')} </span>
      <span className="chip__text">{machine.name}</span>
    </span>
  );
}

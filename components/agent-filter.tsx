'use client';
import { useI18n } from '@/hooks/use-i18n';
import { type AgentOption } from '@/lib/client/filter-options';
import { agentFilter } from '@/lib/client/remembered-choice';
import { ChipFilter } from './chip-filter';
import { IconTerminal } from './icons/terminal';
import '@/lib/client/i18n-en-screens';

/** Sessions and History by agent (R18.1), the choice remembered on this device for both screens. */
export function AgentFilter({
  name,
  options,
  value,
}: {
  name: string;
  options: readonly AgentOption[];
  value: string;
}) {
  const { t } = useI18n();
  const choices = [
    { id: '', name: t('agent.allAgents') },
    ...options.map((option) => ({ id: option.id, name: option.name, Icon: IconTerminal })),
  ];
  return (
    <ChipFilter
      testId="agent-filter"
      legend={t('agent.filter')}
      name={name}
      choices={choices}
      value={value}
      onChange={agentFilter.set}
    />
  );
}

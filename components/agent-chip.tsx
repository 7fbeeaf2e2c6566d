import { useI18n } from '@/hooks/use-i18n';
import { type AgentRef } from '@/lib/contracts';
import { IconTerminal } from './icons/terminal';

/**
 * Which agent asked (R18.1): its name beside a terminal icon, outlined like the machine chip it sits
 * next to. Shown only once a second agent is on record (selectShowAgents). Screen readers hear
 * "Agent: Codex 0.171.0", and the title says the same.
 */
export function AgentChip({ agent }: { agent: AgentRef | undefined }) {
  const { t } = useI18n();
  if (!agent) return null;
  const label = t('agent.label', { name: agent.version ? `${agent.name} ${agent.version}` : agent.name });
  return (
    <span className="chip chip--machine" data-testid="agent-chip" data-agent={agent.kind} title={label}>
      <IconTerminal size={14} />
      <span className="sr-only">{label}</span>
      <span className="chip__text" aria-hidden="true">
        {agent.name}
      </span>
    </span>
  );
}

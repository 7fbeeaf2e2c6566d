import { useI18n } from '@/hooks/use-i18n';
import { type InteractionView } from '@/lib/contracts';
import { IconPlan, IconQuestion, IconTurnEnd } from './icons/kinds';
import { IconShield } from './icons/shell';
import '@/lib/client/i18n-en-prompts';
import '@/lib/client/i18n-en-turns';

/** The header chip: the question's header, or what kind of prompt this is. */
export function KindChip({ view, header }: { view: InteractionView; header?: string }) {
  const { t } = useI18n();
  if (view.kind === 'plan-approval') {
    return (
      <span className="chip chip--plan" data-testid="chip">
        <IconPlan size={14} />
        {t('plan.chip')}
      </span>
    );
  }
  if (view.kind === 'permission' || view.kind === 'approval') {
    return (
      <span className="chip chip--permission" data-testid="chip">
        <IconShield size={14} />
        {view.toolName}
      </span>
    );
  }
  if (view.kind === 'form') {
    return (
      <span className="chip" data-testid="chip">
        <IconQuestion size={14} />
        <span className="chip__text">{view.input.serverName}</span>
      </span>
    );
  }
  if (view.kind === 'finished-turn') {
    // How the turn ended, in one word: the row is quieter than a question's (R19.8).
    const status = view.input.status;
    return (
      <span className={`chip chip--turn chip--turn-${status}`} data-testid="chip">
        <IconTurnEnd size={14} />
        {t(status === 'completed' ? 'turn.completed' : status === 'interrupted' ? 'turn.interrupted' : 'turn.failed')}
      </span>
    );
  }
  // Claude Code's headers may be long (shortened here, whole in the title) or empty (the kind instead).
  const text = (header ?? view.input.questions[0]?.header ?? '').trim() || t('question.chip');
  return (
    <span className="chip" data-testid="chip" title={text}>
      <IconQuestion size={14} />
      <span className="chip__text">{text}</span>
    </span>
  );
}

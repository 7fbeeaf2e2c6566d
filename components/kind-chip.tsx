import { useI18n } from '@/hooks/use-i18n';
import { type InteractionView } from '@/lib/contracts';
import { lazyPart } from '@/hooks/use-lazy-part';
import { IconPlan, IconQuestion } from './icons/kinds';
import { IconShield } from './icons/shell';
import '@/lib/client/i18n-en-prompts';

// A finished turn's chip (R19.8) loads when one is shown: no first screen carries its words (R13.4).
const turnChip = lazyPart(() => import('./turn-chip').then((module) => module.TurnChip));

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
  if (view.kind === 'finished-turn') return <turnChip.Slot status={view.input.status} />;
  // Claude Code's headers may be long (shortened here, whole in the title) or empty (the kind instead).
  const text = (header ?? view.input.questions[0]?.header ?? '').trim() || t('question.chip');
  return (
    <span className="chip" data-testid="chip" title={text}>
      <IconQuestion size={14} />
      <span className="chip__text">{text}</span>
    </span>
  );
}

'use client';
import { useI18n } from '@/hooks/use-i18n';
import { IconAlert } from '../icons/shell';
import { type CardProps } from './card-kinds';
import { DecisionCard } from './decision-card';
import { Markdown } from './markdown';
import '@/lib/client/i18n-en-card';
import '@/app/styles/decision.css';
import '@/lib/client/i18n-en-prompts';

/** ExitPlanMode's plan to approve or reject (R11.2), with marked and DOMPurify loaded as it shows. */
export function PlanCard(props: CardProps<'plan-approval'>) {
  return <DecisionCard {...props} body={<PlanBody view={props.view} />} />;
}

/** The plan, or, when Claude Code sent none, a note that still lets the person decide. */
function PlanBody({ view }: { view: CardProps<'plan-approval'>['view'] }) {
  const { t } = useI18n();
  const { plan, planFilePath } = view.input;
  return (
    <section className="decision">
      <h1 className="decision__title">{t('plan.title')}</h1>
      {plan === undefined ? (
        <p className="decision__missing" data-testid="card.plan-missing">
          <IconAlert size={18} />
          <span>{planFilePath === undefined ? t('plan.missing') : t('plan.fileUnreadable')}</span>
        </p>
      ) : (
        <Markdown source={plan} />
      )}
      {planFilePath === undefined ? null : (
        <p className="decision__source" data-testid="card.plan-file">
          {t('plan.file')} <code className="decision__path">{planFilePath}</code>
        </p>
      )}
    </section>
  );
}

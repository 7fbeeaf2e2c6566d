'use client';
import { useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { clipPermissionText } from '@/lib/client/clip-text';
import { summarizePermission } from '@/lib/client/permission-summary';
import { type CardProps } from './card-kinds';
import { DecisionCard } from './decision-card';
import '@/lib/client/i18n-en-card';
import '@/app/styles/decision.css';
import '@/lib/client/i18n-en-prompts';

/** Any other tool's permission prompt: Allow, or Deny with a reason (R3.2). */
export function PermissionCard(props: CardProps<'permission'>) {
  return <DecisionCard {...props} body={<PermissionBody view={props.view} />} />;
}

function PermissionBody({ view }: { view: CardProps<'permission'>['view'] }) {
  const { t, lang } = useI18n();
  const [whole, setWhole] = useState(false);
  const summary = summarizePermission(view.toolName, view.input);
  // A huge input (deep, pretty-printed) would take seconds to lay out: a screenful first, the rest on a tap.
  const { shown, clipped } = clipPermissionText(summary.text);
  const label =
    summary.kind === 'command'
      ? t('permission.command')
      : summary.kind === 'file'
        ? t('permission.file')
        : t('permission.input');
  return (
    <section className="decision">
      <h1 className="decision__title">{t('permission.title', { tool: view.toolName })}</h1>
      {summary.description ? <p className="decision__description">{summary.description}</p> : null}
      <h2 className="decision__label">{label}</h2>
      <pre className="code-box" data-testid="card.permission-input" tabIndex={0}>
        {whole ? summary.text : shown}
      </pre>
      {clipped && !whole ? (
        <button
          type="button"
          className="link-button"
          data-testid="card.permission-whole"
          onClick={() => setWhole(true)}
        >
          {t('permission.showWhole', { n: summary.text.length.toLocaleString(lang) })}
        </button>
      ) : null}
    </section>
  );
}

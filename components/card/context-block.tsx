'use client';
import { useId, useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { type InteractionContext } from '@/lib/contracts';
import '@/lib/client/i18n-en-card';

const COLLAPSE_OVER = 220;

/** The agent's preceding message, collapsed to a few lines (R9.10). */
export function ContextBlock({ context }: { context: InteractionContext | undefined }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const id = useId();
  const message = context?.agentMessage?.trim();
  if (!message) return null;
  const long = message.length > COLLAPSE_OVER || message.split('\n').length > 4;
  return (
    <section className="context" data-testid="card.context" data-open={open || !long ? 'true' : 'false'}>
      <h2 className="context__label">{t('card.agentSaid')}</h2>
      <p className="context__text" id={id}>
        {message}
      </p>
      {long ? (
        <button
          type="button"
          className="link-button context__toggle"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen((value) => !value)}
          data-testid="card.context-toggle"
        >
          {open ? t('card.showLess') : t('card.showMore')}
        </button>
      ) : null}
    </section>
  );
}

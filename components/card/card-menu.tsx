'use client';
import { useRef } from 'react';
import { IconMore } from '../icons/card-chrome';
import { useI18n } from '@/hooks/use-i18n';
import '@/lib/client/i18n-en-card';

/** Skip all and Decline live behind the overflow menu: quieter than answering, never a shortcut. */
export function CardMenu({ onSkipAll, onDecline }: { onSkipAll?: () => void; onDecline: () => void }) {
  const { t } = useI18n();
  const ref = useRef<HTMLDetailsElement>(null);
  const close = () => ref.current?.removeAttribute('open');
  return (
    <details className="menu" ref={ref}>
      <summary className="menu__button" aria-label={t('card.moreActions')} data-testid="card.menu">
        <IconMore size={22} />
      </summary>
      <div className="menu__list">
        {onSkipAll ? (
          <button
            type="button"
            className="menu__item"
            onClick={() => {
              close();
              onSkipAll();
            }}
            data-testid="card.skip-all"
          >
            {t('card.skipAll')}
          </button>
        ) : null}
        <button
          type="button"
          className="menu__item menu__item--danger"
          onClick={() => {
            close();
            onDecline();
          }}
          data-testid="card.decline"
        >
          {t('card.decline')}
        </button>
      </div>
    </details>
  );
}

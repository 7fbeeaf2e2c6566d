'use client';
import { useRef } from 'react';
import { type Translate } from '@/lib/client/i18n';
import { IconMore } from '../icons';

/** Skip all and Decline live behind the overflow menu: quieter than answering, never a shortcut. */
export function CardMenu({ t, onSkipAll, onDecline }: { t: Translate; onSkipAll?: () => void; onDecline: () => void }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const close = () => ref.current?.removeAttribute('open');
  return (
    <details className="menu" ref={ref}>
      <summary className="menu__button" aria-label={t('more_actions')} data-testid="card.menu">
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
            {t('skip_all')}
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
          {t('decline')}
        </button>
      </div>
    </details>
  );
}

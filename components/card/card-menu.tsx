'use client';
import { useRef } from 'react';
import { IconMore } from '../icons/card-chrome';
import { useI18n } from '@/hooks/use-i18n';
import '@/lib/client/i18n-en-card';

export interface CardMenuItem {
  label: string;
  onSelect: () => void;
  testId: string;
  /** Ends the prompt without an answer (decline, cancel): set apart in red. */
  danger?: boolean;
}

/** Skip all, Decline and the like live behind the overflow menu: quieter than answering, never a shortcut. */
export function CardMenu({ items }: { items: readonly CardMenuItem[] }) {
  const { t } = useI18n();
  const ref = useRef<HTMLDetailsElement>(null);
  const close = () => ref.current?.removeAttribute('open');
  return (
    <details className="menu" ref={ref}>
      <summary className="menu__button" aria-label={t('card.moreActions')} data-testid="card.menu">
        <IconMore size={22} />
      </summary>
      <div className="menu__list">
        {items.map((item) => (
          <button
            key={item.testId}
            type="button"
            className={item.danger ? 'menu__item menu__item--danger' : 'menu__item'}
            onClick={() => {
              close();
              item.onSelect();
            }}
            data-testid={item.testId}
          >
            {item.label}
          </button>
        ))}
      </div>
    </details>
  );
}

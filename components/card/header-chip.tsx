'use client';
import { useState } from 'react';
import { ASK_USER_QUESTION_TOOL_CHIP_WIDTH } from '@/lib/contracts/limits';
import { useI18n } from '@/hooks/use-i18n';
import '@/lib/client/i18n-en-card';

/**
 * A question's header chip. Claude Code's questions may carry a header longer
 * than a chip fits (R11.5): it is shortened with an ellipsis, its full text is in
 * the title and, on a tap, shown whole. An empty header shows no chip at all.
 */
export function HeaderChip({ header }: { header: string }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  if (header === '') return null;
  if (header.length <= ASK_USER_QUESTION_TOOL_CHIP_WIDTH) {
    return <span className="chip question__chip">{header}</span>;
  }
  // The button is a full-height touch target around the chip; the chip keeps its usual size.
  return (
    <button
      type="button"
      className="chip-toggle"
      title={header}
      aria-expanded={open}
      aria-label={`${header}. ${open ? t('question.headerShort') : t('question.headerFull')}`}
      onClick={() => setOpen(!open)}
      data-testid="card.header-chip"
    >
      <span className="chip chip--long" data-open={open ? 'true' : undefined}>
        <span className="chip__text">{header}</span>
      </span>
    </button>
  );
}

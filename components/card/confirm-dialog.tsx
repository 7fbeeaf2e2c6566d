'use client';
import { useId, useState } from 'react';
import { useModalDialog } from '@/hooks/use-modal-dialog';
import { DECLINE_MESSAGE_MAX } from '@/lib/contracts/limits';
import '@/app/styles/dialog.css';

interface Props {
  open: boolean;
  title: string;
  hint?: string;
  reasonLabel?: string;
  confirmLabel: string;
  cancelLabel: string;
  danger?: boolean;
  testId: string;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}

/** A modal (native <dialog>) so nothing resolves a prompt without the user meaning to. */
export function ConfirmDialog({
  open,
  title,
  hint,
  reasonLabel,
  confirmLabel,
  cancelLabel,
  danger,
  testId,
  onConfirm,
  onClose,
}: Props) {
  const ref = useModalDialog(open);
  const [reason, setReason] = useState('');
  const titleId = useId();
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onClose={onClose} data-testid={testId}>
      <form
        method="dialog"
        className="dialog__body"
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm(reason.trim());
        }}
      >
        <h2 id={titleId} className="dialog__title">
          {title}
        </h2>
        {hint ? <p className="dialog__hint">{hint}</p> : null}
        {reasonLabel ? (
          <label className="note">
            <span className="note__label">{reasonLabel}</span>
            <textarea
              className="field"
              rows={3}
              maxLength={DECLINE_MESSAGE_MAX}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              data-testid={`${testId}-reason`}
            />
          </label>
        ) : null}
        <div className="dialog__actions">
          <button type="button" className="button button--ghost" onClick={onClose}>
            {cancelLabel}
          </button>
          <button
            type="submit"
            className={`button ${danger ? 'button--danger' : 'button--primary'}`}
            data-testid={`${testId}-confirm`}
          >
            {confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}

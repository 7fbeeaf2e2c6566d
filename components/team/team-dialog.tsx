'use client';
import { useId } from 'react';
import { useModalDialog } from '@/hooks/use-modal-dialog';
import '@/app/styles/dialog.css';
import '@/app/styles/team.css';

interface Props {
  open: boolean;
  title: string;
  hint?: React.ReactNode;
  testId: string;
  onClose: () => void;
  /** The form's submit; absent for a dialog that only shows something (the invite's command). */
  onSubmit?: () => void;
  children?: React.ReactNode;
  actions: React.ReactNode;
}

/**
 * A team screen's modal (native <dialog>): focus moves in and back, Escape closes it, Tab stays inside (R21.88).
 * The actions are the form's buttons: a submit button submits `onSubmit`.
 */
export function TeamDialog({ open, title, hint, testId, onClose, onSubmit, children, actions }: Props) {
  const ref = useModalDialog(open);
  const titleId = useId();
  return (
    <dialog ref={ref} className="dialog team-dialog" aria-labelledby={titleId} onClose={onClose} data-testid={testId}>
      <form
        method="dialog"
        className="dialog__body"
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit?.();
        }}
      >
        <h2 id={titleId} className="dialog__title">
          {title}
        </h2>
        {hint ? <div className="dialog__hint">{hint}</div> : null}
        {open ? children : null}
        <div className="dialog__actions">{actions}</div>
      </form>
    </dialog>
  );
}

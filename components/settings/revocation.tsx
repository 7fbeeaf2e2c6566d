'use client';
import { useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { ConfirmDialog } from '../card/confirm-dialog';
import '@/lib/client/i18n-en-settings';

interface Revocable {
  id: string;
  name: string;
}

/** Revoking one of a Settings list (a device, a machine): which one is being confirmed, and whether it failed. */
export interface Revocation<Item extends Revocable> {
  revoking: Item | null;
  failed: boolean;
  ask(item: Item): void;
  cancel(): void;
  confirm(): void;
}

/** `revoke` rejects when the host refused or could not be reached; the list shows the outcome otherwise. */
export function useRevocation<Item extends Revocable>(revoke: (item: Item) => Promise<unknown>): Revocation<Item> {
  const [revoking, setRevoking] = useState<Item | null>(null);
  const [failed, setFailed] = useState(false);
  return {
    revoking,
    failed,
    ask(item) {
      setFailed(false);
      setRevoking(item);
    },
    cancel: () => setRevoking(null),
    confirm() {
      const item = revoking;
      setRevoking(null);
      if (item) revoke(item).catch(() => setFailed(true));
    },
  };
}

/** A row's Revoke button, named for what it revokes. */
export function RevokeButton<Item extends Revocable>({
  item,
  revocation,
  disabled,
  testId,
}: {
  item: Item;
  revocation: Revocation<Item>;
  disabled: boolean;
  testId: string;
}) {
  const { t } = useI18n();
  return (
    <button
      type="button"
      className="button button--danger"
      disabled={disabled}
      aria-label={t('settings.revokeLabel', { name: item.name })}
      onClick={() => revocation.ask(item)}
      data-testid={testId}
    >
      {t('settings.revoke')}
    </button>
  );
}

/** "Revoke <name>?" with what it does (`hint`), and the error line when a revocation failed. */
export function RevokeConfirmation<Item extends Revocable>({
  revocation,
  hint,
  failedText,
  testId,
  errorTestId,
}: {
  revocation: Revocation<Item>;
  hint: string;
  failedText: string;
  testId: string;
  errorTestId: string;
}) {
  const { t } = useI18n();
  return (
    <>
      {revocation.failed ? (
        <p className="form__error" role="alert" data-testid={errorTestId}>
          {failedText}
        </p>
      ) : null}
      <ConfirmDialog
        open={revocation.revoking !== null}
        title={t('settings.revokeTitle', { name: revocation.revoking?.name ?? '' })}
        hint={hint}
        confirmLabel={t('settings.revoke')}
        cancelLabel={t('common.cancel')}
        danger
        testId={testId}
        onClose={revocation.cancel}
        onConfirm={revocation.confirm}
      />
    </>
  );
}

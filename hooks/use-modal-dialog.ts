'use client';
import { useEffect, useRef, type RefObject } from 'react';

/** A `<dialog>` shown modal while `open`, closed otherwise (focus kept inside and given back by the browser). */
export function useModalDialog(open: boolean): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return ref;
}

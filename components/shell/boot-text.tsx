import { type ReactNode } from 'react';
import { type MessageKey, type Translate } from '@/lib/client/i18n';

/** The CSS variables of lib/client/first-paint.ts, by what they name. */
type Slot = 'removed-host' | 'host-name' | 'paired-host' | 'link-host';

/**
 * Text the prerendered HTML cannot hold and React cannot write while it hydrates: a host name this device
 * stored, the address the page was opened at. app/styles/first-paint.css draws it from the variable the inline
 * script in <head> set, so the line is whole at first paint and keeps its length after hydration (R9.14).
 */
export function BootText({ slot, fallback }: { slot: Slot; fallback?: string }) {
  return <span className={`boot-text boot-text--${slot}`} data-fallback={fallback} />;
}

const MARK = '\u{E000}';

/** `t(key, {[name]: …})` with that value drawn by `slot` (a BootText). */
export function bootTemplate(t: Translate, key: MessageKey, name: string, slot: ReactNode): ReactNode {
  const [before = '', after = ''] = t(key, { [name]: MARK }).split(MARK);
  return (
    <>
      {before}
      {slot}
      {after}
    </>
  );
}

import { type InboxGroup } from './selectors';

/**
 * Rows from which the inbox lets the browser skip its groups off screen (`content-visibility: auto` on
 * `.inbox[data-long] .inbox-group`, app/styles/inbox.css): about six phone screens. A long inbox (R13.2's 1,000)
 * is laid out a screen at a time. A short one is laid out whole: skipped groups are laid out one by one when read
 * or scrolled to, each its own style and layout pass, which cost a reload more than laying out 20 rows at once
 * (issue 40 §2).
 */
export const LONG_INBOX_ROWS = 50;

/** `data-long` for the inbox's list: 'true' when its groups hold LONG_INBOX_ROWS rows or more. */
export function longInbox(groups: readonly InboxGroup[]): 'true' | undefined {
  let rows = 0;
  for (const group of groups) rows += group.items.length;
  return rows >= LONG_INBOX_ROWS ? 'true' : undefined;
}

import { memoByInteractions } from './interactions-memo';

// Apart from ./selectors: the tab bar's badge is on every route's first screen, the inbox's grouping is not.

/** How many interactions wait for an answer. */
export const selectPendingCount = memoByInteractions((interactions) => {
  let count = 0;
  for (const view of interactions.values()) if (view.status === 'pending') count += 1;
  return count;
});

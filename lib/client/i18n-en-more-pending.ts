import { addEnglish } from './i18n';

/** English strings of the inbox's "more waiting" row (R12.7): with its own chunk, since only a flooded inbox shows it. */
export const enMorePending = {
  'inbox.moreWaiting': '{n} more waiting on the host',
  'inbox.moreLoad': 'Show more',
  'inbox.moreFailed': 'Could not load more; check the connection and try again.',
} as const;

addEnglish(enMorePending);

import { type PairRequest } from '../contracts/pairing-api';
import { errorMessage } from '../contracts/unknown';
import type * as PairRequestModule from './pair-request';

// The pair page calls this; ./pair-request reads the host's reply with the contracts' zod schemas, so it
// loads when the person first touches the page (preloadPairRequestOnIntent) rather than with the page's first
// screen (R13.4) or just after it: evaluated then, zod was a 80 ms long task of a first visit's blocking time on
// Lighthouse's mobile CPU (R13.7). A press on Pair starts it a tap's length before the click.

let loading: Promise<typeof PairRequestModule> | null = null;

function load(): Promise<typeof PairRequestModule> {
  loading ??= import('./pair-request').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

const INTENT_EVENTS = ['pointerdown', 'keydown', 'focusin'] as const;

/** Starts loading the request code at the first press, key or focus on the page; returns the listeners' undo. */
export function preloadPairRequestOnIntent(
  target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> = document,
): () => void {
  const start = () => {
    stop();
    load().catch(() => undefined);
  };
  const stop = () => {
    for (const type of INTENT_EVENTS) target.removeEventListener(type, start, { capture: true });
  };
  for (const type of INTENT_EVENTS) target.addEventListener(type, start, { capture: true });
  return stop;
}

/** As ./pair-request's, and `unreachable` when its code cannot be loaded (the app's server is gone). */
export async function redeemPairingCode(hostUrl: string, request: PairRequest): Promise<PairRequestModule.PairOutcome> {
  let requests: typeof PairRequestModule;
  try {
    requests = await load();
  } catch (error) {
    return { ok: false, kind: 'unreachable', message: errorMessage(error) };
  }
  return requests.redeemPairingCode(hostUrl, request);
}

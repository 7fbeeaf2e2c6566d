import { type InteractionResponse, type PreferencesPatch } from '../contracts';
import { errorMessage } from '../contracts/unknown';
import type * as AppConnection from './app-connection';
import { appStore } from './app-store';
import { showCachedStart } from './cache-first';
import { takeEarlyCacheRead } from './cache-prefetch';
import { loadOutboxEntries } from './outbox-db';
import { getPairing, type Pairing } from './pairing';
import { randomId } from './random-id';
import { cachedHostView, loadCachedHost } from './state-cache';
import { withAnswer } from './store';

// What the screens call to reach the host. The live connection (./app-connection, with socket.io-client
// and the contracts' zod schemas) is loaded here after the first paint, so no route's first screen
// carries it (R13.4); the inbox this device saw last is on screen before it (R9.1).

type Live = typeof AppConnection;

let live: Promise<Live> | null = null;
let started: Promise<void> = Promise.resolve();
let retryHooked = false;
let lastPairing: Pairing | null = null;

function loadLive(): Promise<Live> {
  live ??= import('./app-connection').catch((error: unknown) => {
    // Served by the host (and precached by the service worker): try again when things change.
    live = null;
    throw error;
  });
  return live;
}

/** Reads what this device kept for its paired host and shows it; true when a cached inbox is shown. */
async function showCached(pairing: Pairing | null): Promise<boolean> {
  // Usually read already, by the inline script in <head> (./cache-prefetch.ts).
  const early = await takeEarlyCacheRead();
  if (!pairing) return false;
  if (early)
    return showCachedStart(appStore, pairing, {
      host: cachedHostView(early.host, pairing.hostUrl),
      answers: early.outbox,
    });
  // An outbox that cannot be read now only leaves receipts off the cached paint: the live connection's
  // answer queue reads it again and reports what fails there.
  const [host, answers] = await Promise.all([loadCachedHost(pairing.hostUrl), loadOutboxEntries().catch(() => [])]);
  return showCachedStart(appStore, pairing, { host, answers });
}

// Started as this module is evaluated, before React hydrates: the IndexedDB read overlaps it.
const cachedShown: Promise<boolean> = typeof window === 'undefined' ? Promise.resolve(false) : showCached(getPairing());
// Not paired: said in the first render after hydration, as the prerendered HTML already says it (R9.14), and
// without the live connection's code, which has nothing to connect to.
if (typeof window !== 'undefined' && getPairing() === null) markUnpaired();

function markUnpaired(): void {
  appStore.setState((s) =>
    s.status === 'unpaired' && s.error === null ? s : { ...s, status: 'unpaired', error: null },
  );
}
if (typeof window !== 'undefined') {
  // Nothing cached to paint first (a first visit): fetch the connection alongside hydration instead.
  void cachedShown.then((shown) => {
    // A prefetch: if it fails, startConnection's own load fails the same way and says so on screen.
    if (!shown && getPairing()) loadLive().catch(() => undefined);
  });
}

/**
 * Resolves once the browser has presented what is in the DOM now: the frame after the next one has
 * begun (two animation frames), or soon in a hidden tab, which gets no frames.
 */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, 200);
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        clearTimeout(fallback);
        resolve();
      }),
    );
  });
}

/** Connects (or reconnects with new credentials), after the cached inbox is painted. Idempotent for the same pairing. */
export function startConnection(pairing: Pairing | null): void {
  lastPairing = pairing;
  started = started.then(async () => {
    if (await cachedShown) await afterNextPaint();
    // Hydration reads no pairing (null) and then the stored one: act on the newest call only, or the
    // screen would flash "not paired" between the two.
    if (pairing !== lastPairing) return;
    // Never connected on this page: nothing to stop.
    if (pairing === null && live === null) {
      markUnpaired();
      return;
    }
    try {
      (await loadLive()).startConnection(pairing);
    } catch (error) {
      couldNotLoad(error);
    }
  });
}

function couldNotLoad(error: unknown): void {
  appStore.setState((s) => ({
    ...s,
    status: 'reconnecting',
    error: { kind: 'unreachable', message: errorMessage(error) },
  }));
  if (retryHooked) return;
  retryHooked = true;
  const retry = () => {
    if (live === null) startConnection(lastPairing);
  };
  window.addEventListener('online', retry);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') retry();
  });
}

/** Queues the answer durably and sends it when connected (./answer-queue). */
export async function submitResponse(requestId: string, response: InteractionResponse): Promise<void> {
  let connection: Live;
  try {
    connection = await loadLive();
  } catch (error) {
    // Not even queued: bring the form back with the reason rather than drop what was written.
    appStore.setState((s) =>
      withAnswer(s, {
        requestId,
        clientResponseId: randomId(),
        response,
        createdAt: new Date().toISOString(),
        phase: 'failed',
        error: errorMessage(error),
      }),
    );
    return;
  }
  return connection.submitResponse(requestId, response);
}

export async function updatePreferences(patch: PreferencesPatch): Promise<boolean> {
  return (await loadLive()).updatePreferences(patch);
}

/** The next page of waiting interactions beyond what the host sent at first (R12.7). */
export async function loadMorePending(): Promise<boolean> {
  return (await loadLive()).loadMorePending();
}

/** Forget: drop the connection and what this device cached from the host. */
export async function forgetHost(): Promise<unknown> {
  return (await loadLive()).forgetHost();
}

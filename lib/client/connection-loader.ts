import { type InteractionResponse, type PreferencesPatch } from '../contracts';
import { errorMessage } from '../contracts/unknown';
import { afterNextPaint } from './after-next-paint';
import type * as AppConnection from './app-connection';
import { appStore } from './app-store';
import { showCachedStart } from './cache-first';
import { cachedHostView } from './cached-host';
import { takeEarlyCacheRead } from './early-cache-read';
import { getPairing, type Pairing } from './pairing';
import { randomId } from './random-id';
import { whenEarlyAnswer } from './early-answer';
import { withAnswer } from './store';
import { markPhase } from './test-hook';

// What the screens call to reach the host. The live connection (./app-connection, with socket.io-client
// and the contracts' zod schemas) is loaded here after the first paint, so no route's first screen
// carries it (R13.4); the inbox this device saw last is on screen before it (R9.1).

type Live = typeof AppConnection;

let live: Promise<Live> | null = null;
let started: Promise<void> = Promise.resolve();
let retryHooked = false;
let lastPairing: Pairing | null = null;
let firstStart = true;
/** Whether the cached inbox was handed to React: undefined while it is still being read. */
let cachedWasShown: boolean | undefined;

function loadLive(): Promise<Live> {
  live ??= import('./app-connection').then(
    (module) => {
      markPhase('live-loaded');
      return module;
    },
    (error: unknown) => {
      // Served by the host (and precached by the service worker): try again when things change.
      live = null;
      throw error;
    },
  );
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
  // The inline read did not run or failed (a first visit has no database yet): the code that opens it, on
  // demand. An outbox that cannot be read now only leaves receipts off the cached paint: the live
  // connection's answer queue reads it again and reports what fails there.
  const [{ loadCachedHost }, { loadOutboxEntries }] = await Promise.all([
    import('./state-cache'),
    import('./outbox-db'),
  ]);
  const [host, answers] = await Promise.all([loadCachedHost(pairing.hostUrl), loadOutboxEntries().catch(() => [])]);
  return showCachedStart(appStore, pairing, { host, answers });
}

// Started as this module is evaluated, before React hydrates: the IndexedDB read overlaps it.
const cachedShown: Promise<boolean> =
  typeof window === 'undefined'
    ? Promise.resolve(false)
    : showCached(getPairing()).then((shown) => {
        if (shown) markPhase('cached-shown');
        cachedWasShown = shown;
        return shown;
      });
// The host's answer on the socket <head> opened (./socket-prefetch.ts): with nothing cached, when it comes before
// hydration ends, the live inbox is what paints first (R13.8).
const earlyAnswer: Promise<void> = whenEarlyAnswer();
// Not paired: said in the first render after hydration, as the prerendered HTML already says it (R9.14), and
// without the live connection's code, which has nothing to connect to.
if (typeof window !== 'undefined' && getPairing() === null) markUnpaired();

function markUnpaired(): void {
  appStore.setState((s) =>
    s.status === 'unpaired' && s.error === null ? s : { ...s, status: 'unpaired', error: null },
  );
}

if (typeof window !== 'undefined' && getPairing()) {
  // Prefetches: a load that fails here fails the same way in startConnection, which says so on screen.
  // Nothing cached to paint first (a first visit, or a device that saved no inbox yet): load the live connection
  // alongside hydration, and once the host has answered the socket <head> opened, connect at once with the stored
  // pairing; the app shell's own call once hydrated finds it connected (R13.8). With a cached inbox, its rows wait
  // for hydration, and the live code's evaluation (socket.io-client, the zod schemas: 170 KB) beside it only put
  // them later: startConnection loads it after their frame (issue 40 §2).
  void cachedShown.then(async (shown) => {
    if (shown) return;
    loadLive().catch(() => undefined);
    await earlyAnswer;
    const pairing = getPairing();
    const connection = await loadLive().catch(() => null);
    if (pairing && connection && lastPairing === null) connection.startConnection(pairing);
  });
}

/**
 * Connects (or reconnects with new credentials). Idempotent for the same pairing. The app shell calls it once
 * hydrated: a cached inbox read by then is committed in that same render, and the connection's code loads once
 * the frame that draws it is on screen, so the rows never wait for it (R9.13, R13.6, R13.8).
 */
export function startConnection(pairing: Pairing | null): void {
  lastPairing = pairing;
  // Only a read already done is waited for: a slow one (an IndexedDB held by another page) races the live one.
  const cachedPaint = firstStart && cachedWasShown === true ? afterNextPaint() : undefined;
  firstStart = false;
  started = started.then(async () => {
    await cachedPaint;
    // A newer call (another pairing) supersedes this one.
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

import { abortError } from '../core/format-issues';

/** R8.1: how often a pending request is re-announced. */
export const INTERACTION_REQUEST_REANNOUNCE_INTERVAL_MS = 1000;

/**
 * Sends kept open at once. A resolution is routed by business id, so the newest
 * announce receives it and one more covers a reply already in flight; older sends
 * are aborted, or a long wait would keep one open send (and its listeners) per second.
 */
const MAX_OPEN_SENDS = 2;

let settledAbortReason: Error | undefined;

/**
 * Why the sends of a settled request are aborted. Made once: a DOMException captures
 * a stack (10–20 µs), and every answer passes here on its way to the agent; nobody
 * reads it (the winning send has its value, the others lost the race).
 */
function settledReason(): Error {
  settledAbortReason ??= abortError('the interaction request was settled');
  return settledAbortReason;
}

/** A send that rejects with this ends the recovery loop instead of being retried. */
export class FatalInteractionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FatalInteractionError';
  }
}

export interface InteractionRequestRecoveryOptions {
  /** Defaults to INTERACTION_REQUEST_REANNOUNCE_INTERVAL_MS. */
  intervalMs?: number;
  /** Aborting rejects with an AbortError and stops every send. */
  signal?: AbortSignal;
  /** A fresh protocol id for each (re-)announce; defaults to a random UUID. */
  newProtocolRequestId?: () => string;
  /** Which send rejections end the loop; by default only FatalInteractionError. */
  isFatal?: (error: unknown) => boolean;
}

/**
 * Calls `send` at once and again every interval with a fresh protocol id, so a
 * host that lost its registration gets a respondable one (R8.1). The first send
 * to resolve wins; then the loop stops and every outstanding send is aborted
 * (R8.3). A send that rejects — a transient disconnect — is not fatal: the loop
 * keeps re-announcing.
 *
 * Each send gets its own signal; only the newest MAX_OPEN_SENDS stay open, and all
 * are aborted when the race ends, so a long wait keeps its memory flat.
 */
export function withInteractionRequestRecovery<T>(
  send: (protocolRequestId: string, signal: AbortSignal) => Promise<T>,
  options: InteractionRequestRecoveryOptions = {},
): Promise<T> {
  const intervalMs =
    options.intervalMs !== undefined && options.intervalMs > 0
      ? options.intervalMs
      : INTERACTION_REQUEST_REANNOUNCE_INTERVAL_MS;
  const newId = options.newProtocolRequestId ?? (() => globalThis.crypto.randomUUID());
  const isFatal = options.isFatal ?? ((error: unknown) => error instanceof FatalInteractionError);
  const external = options.signal;

  return new Promise<T>((resolve, reject) => {
    if (external?.aborted) {
      reject(abortError(external.reason));
      return;
    }
    const outstanding = new Set<AbortController>();
    let settled = false;
    let timer: ReturnType<typeof setInterval> | undefined;

    const stop = () => {
      if (timer !== undefined) clearInterval(timer);
      external?.removeEventListener('abort', onAbort);
      for (const controller of outstanding) controller.abort(settledReason());
      outstanding.clear();
    };
    const finish = (settle: () => void, later = false) => {
      if (settled) return;
      settled = true;
      settle();
      // An answer reaches the caller first: aborting a signal dispatches an event (~50 µs on a
      // cold path), and nothing is re-announced once `settled` is set, so the rest can wait a turn.
      if (later) setTimeout(stop, 0);
      else stop();
    };
    const onAbort = () => finish(() => reject(abortError(external?.reason)));

    const announce = () => {
      if (settled) return;
      const controller = new AbortController();
      outstanding.add(controller);
      for (const older of outstanding) {
        if (outstanding.size <= MAX_OPEN_SENDS) break;
        outstanding.delete(older);
        older.abort(abortError('superseded by a newer announce of the same request'));
      }
      let attempt: Promise<T>;
      try {
        attempt = Promise.resolve(send(newId(), controller.signal));
      } catch (error) {
        attempt = Promise.reject(error);
      }
      attempt.then(
        (value) => finish(() => resolve(value), true),
        (error: unknown) => {
          outstanding.delete(controller);
          if (isFatal(error)) finish(() => reject(error));
        },
      );
    };

    external?.addEventListener('abort', onAbort, { once: true });
    announce();
    if (!settled) timer = setInterval(announce, intervalMs);
  });
}

import { type InteractionResolution } from '../contracts';

export type Outcome = { resolution: InteractionResolution } | { error: unknown };

interface Waiter {
  resolve(resolution: InteractionResolution): void;
  reject(error: unknown): void;
}

/**
 * The tool calls waiting on each requestId. Several may wait on one request
 * (each re-announce waits anew, R8.1); one outcome settles them all. Once
 * nobody waits any more, settled or aborted, `onIdle` lets the request go.
 */
export class RequestWaiters {
  private readonly waiting = new Map<string, Set<Waiter>>();

  constructor(private readonly onIdle: (requestId: string) => void) {}

  /** Settles with the request's outcome, or rejects with the signal's reason once it aborts. */
  wait(requestId: string, signal: AbortSignal): Promise<InteractionResolution> {
    return new Promise<InteractionResolution>((resolve, reject) => {
      const onAbort = () => {
        this.remove(requestId, waiter);
        reject(abortReason(signal));
      };
      const waiter: Waiter = {
        resolve: (resolution) => {
          signal.removeEventListener('abort', onAbort);
          resolve(resolution);
        },
        reject: (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const set = this.waiting.get(requestId) ?? new Set<Waiter>();
      set.add(waiter);
      this.waiting.set(requestId, set);
    });
  }

  settle(requestId: string, outcome: Outcome): void {
    const set = this.waiting.get(requestId);
    this.waiting.delete(requestId);
    this.onIdle(requestId);
    for (const waiter of set ?? []) {
      if ('resolution' in outcome) waiter.resolve(outcome.resolution);
      else waiter.reject(outcome.error);
    }
  }

  failAll(error: unknown): void {
    for (const requestId of [...this.waiting.keys()]) this.settle(requestId, { error });
  }

  private remove(requestId: string, waiter: Waiter): void {
    const set = this.waiting.get(requestId);
    if (!set) return;
    set.delete(waiter);
    if (set.size > 0) return;
    this.waiting.delete(requestId);
    this.onIdle(requestId);
  }
}

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

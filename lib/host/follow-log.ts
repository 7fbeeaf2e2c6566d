import { type InteractionRegistry } from './registry';
import { type EventStore } from './store/event-store';

/**
 * Keeps a registry in step with what other hub processes append to the same log (R20.40): each hint from
 * `store.watch` (PostgreSQL's NOTIFY) that names a seq this registry has not folded starts a catch-up. Hints
 * coalesce: at most one catch-up runs and one more waits, whatever the number of hints meanwhile, since one
 * catch-up reads everything up to the head. Once at the start too: what was appended between the registry's
 * first fold and the watch was announced to no one. Returns a function that stops following.
 */
export function followLog(
  store: Pick<EventStore, 'watch'>,
  registry: Pick<InteractionRegistry, 'catchUp'> & { projection: { readonly seq: number } },
  onError: (error: unknown) => void,
): () => void {
  let running = false;
  let queued = false;
  let stopped = false;
  const run = (): void => {
    running = true;
    void registry
      .catchUp()
      // The database away (R20.19): the watcher hints again once it listens again, and the next hint catches up.
      .catch(onError)
      .finally(() => {
        running = false;
        if (queued && !stopped) {
          queued = false;
          run();
        }
      });
  };
  const hint = (lastSeq: number): void => {
    // Once this process's own commit is folded in (its append is hinted too, on SQLite before it is folded),
    // a hint of a seq already folded asks for nothing.
    setImmediate(() => {
      if (stopped || lastSeq <= registry.projection.seq) return;
      if (running) queued = true;
      else run();
    });
  };
  const unwatch = store.watch(hint);
  run();
  return () => {
    stopped = true;
    unwatch();
  };
}

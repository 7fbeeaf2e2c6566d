'use client';
import { useEffect, useSyncExternalStore, type ComponentType } from 'react';

export interface LazyPart<Props extends object> {
  /** Starts loading (once); a failed load is tried again by the next call. */
  preload(): Promise<void>;
  /** The part once it is here, nothing until then (and while prerendering); loads it if nobody has yet. */
  Slot: ComponentType<Props>;
}

/** Renders the part it is given: a component that arrives in a prop is the same one on every render. */
function Render<Props extends object>({ part: Part, props }: { part: ComponentType<Props>; props: Props }) {
  return <Part {...props} />;
}

/**
 * A part of a screen in its own chunk, kept out of the route's first screen (R13.4) and rendered as soon as it
 * is here, in the same render once it was loaded before. Not React.lazy: its Suspense boundary would show its
 * fallback (blank) whenever the screen updates while the chunk is on its way.
 */
export function lazyPart<Props extends object>(load: () => Promise<ComponentType<Props>>): LazyPart<Props> {
  let part: ComponentType<Props> | undefined;
  let pending: Promise<void> | null = null;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const preload = (): Promise<void> => {
    if (part !== undefined) return Promise.resolve();
    pending ??= load().then(
      (loaded) => {
        part = loaded;
        for (const listener of listeners) listener();
      },
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  };
  function Slot(props: Props) {
    const loaded = useSyncExternalStore(
      subscribe,
      () => part,
      () => undefined,
    );
    useEffect(() => {
      // Precached by the service worker: a failure (offline without it) is tried again on the next visit.
      if (loaded === undefined) preload().catch(() => undefined);
    }, [loaded]);
    return loaded ? <Render part={loaded} props={props} /> : null;
  }
  return { preload, Slot };
}

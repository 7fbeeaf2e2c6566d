'use client';
import { useSyncExternalStore } from 'react';

const subscribeNothing = () => () => undefined;

/**
 * False while React hydrates the prerendered HTML (and while prerendering), true from the render after it.
 * A first screen renders every variant the HTML carries while false (R9.14: the inline script in <head> has
 * already picked one, ../lib/client/first-paint.ts), then only the one that applies, in the same place.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  );
}

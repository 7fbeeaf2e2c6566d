'use client';
import { useEffect, useSyncExternalStore } from 'react';
import { cardKindsSnapshot, loadCardKind, subscribeCardKinds, type CardKind, type Cards } from './card-kinds';

// The card route's side of ./card-kinds.ts (the inbox only starts loads).

/** The cards loaded so far (a kind still loading has none), and whether the one asked for failed to load. */
export interface CardKindState {
  cards: Partial<Cards>;
  failed: boolean;
}

/** The loaded cards, loading `kind` if it is not yet; re-renders when it arrives or fails. */
export function useCardKind(kind: CardKind | undefined): CardKindState {
  const version = useSyncExternalStore(subscribeCardKinds, cardKindsSnapshot, cardKindsSnapshot);
  useEffect(() => {
    if (kind) void loadCardKind(kind);
  }, [kind]);
  return { cards: version.cards, failed: kind !== undefined && version.failed.has(kind) };
}

'use client';
import { createContext, createElement, useContext, type ReactNode } from 'react';
import { useRemote } from '@/hooks/use-remote';
import { isLive } from '@/lib/client/store';

const LiveContext = createContext(false);

/**
 * Gives the components below whether the host state on screen is live (lib/client/store.ts, isLive).
 * A context rather than a prop: when the socket comes and goes, only the components that show it
 * (countdowns) re-render, not every row of a long inbox.
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const live = isLive(useRemote());
  return createElement(LiveContext.Provider, { value: live }, children);
}

export function useLive(): boolean {
  return useContext(LiveContext);
}

'use client';
import { useSyncExternalStore } from 'react';
import { getServerState, getState, subscribe, type RemoteState } from '@/lib/client/store';

/** The whole remote state; components pick what they need and memoize derived data. */
export function useRemote(): RemoteState {
  return useSyncExternalStore(subscribe, getState, getServerState);
}

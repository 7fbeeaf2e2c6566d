'use client';
import { useSyncExternalStore } from 'react';
import { appStore } from '@/lib/client/app-store';
import { INITIAL_REMOTE_STATE, type RemoteState } from '@/lib/client/store';

const serverState = () => INITIAL_REMOTE_STATE;

/** The whole remote state; components pick what they need and memoize derived data. */
export function useRemote(): RemoteState {
  return useSyncExternalStore(appStore.subscribe, appStore.getState, serverState);
}

'use client';
import { useSyncExternalStore } from 'react';
import { type RememberedChoice } from '@/lib/client/remembered-choice';

/** A filter Sessions and History share on this device ('' = no filter); '' while prerendering. */
export function useRememberedChoice(choice: RememberedChoice): string {
  return useSyncExternalStore(choice.subscribe, choice.get, () => '');
}

'use client';
import { useSyncExternalStore } from 'react';
import { getMachineFilter, subscribeMachineFilter } from '@/lib/client/machine-filter';

/** The machine Sessions and History are filtered by on this device ('' = every machine). */
export function useMachineFilter(): string {
  return useSyncExternalStore(subscribeMachineFilter, getMachineFilter, () => '');
}

'use client';
import { useSyncExternalStore } from 'react';
import { getPairing, subscribePairing, type Pairing } from '@/lib/client/pairing';

export function usePairing(): Pairing | null {
  return useSyncExternalStore(subscribePairing, getPairing, () => null);
}

'use client';
import { useSyncExternalStore } from 'react';
import {
  getPairing,
  getPairingProblem,
  subscribePairing,
  type Pairing,
  type PairingProblem,
} from '@/lib/client/pairing';

/** This device's working pairing, or null (not paired, revoked, or holding the old shared token). */
export function usePairing(): Pairing | null {
  return useSyncExternalStore(subscribePairing, getPairing, () => null);
}

/** Why this device must pair again before anything else (R16.5, R16.7), or null. */
export function usePairingProblem(): PairingProblem | null {
  return useSyncExternalStore(subscribePairing, getPairingProblem, () => null);
}

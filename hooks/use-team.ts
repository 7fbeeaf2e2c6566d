'use client';
import { useEffect, useSyncExternalStore } from 'react';
import { type TeamView } from '@/lib/contracts/team-api';
import { type Pairing } from '@/lib/client/pairing';
import { teamStore } from '@/lib/client/team-store';
import { usePairing } from './use-pairing';

const noSnapshot = () => null;

/**
 * The team as this device's person sees it (R21.75): undefined until known (or while not paired), null on a hub
 * that signs nobody in. Asked again when the device pairs again or its connection comes back.
 */
export function useTeam(pairing: Pairing | null, connected: boolean): TeamView | null | undefined {
  const team = useKnownTeam();
  useEffect(() => {
    if (!pairing) return;
    if (connected) teamStore.ensure(pairing);
    else teamStore.markStale();
  }, [pairing, connected]);
  return team;
}

/** What is known of the team now, without asking (a screen above asks: `useTeam`). */
export function useKnownTeam(): TeamView | null | undefined {
  const pairing = usePairing();
  const snapshot = useSyncExternalStore(teamStore.subscribe, teamStore.snapshot, noSnapshot);
  return pairing && snapshot?.credential === pairing.credential ? snapshot.team : undefined;
}

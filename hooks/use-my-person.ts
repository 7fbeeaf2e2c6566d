'use client';
import { useEffect, useState } from 'react';
import { type PersonRef } from '@/lib/contracts/people';
import { myPerson } from '@/lib/client/hub-people-loader';
import { type Pairing } from '@/lib/client/pairing';

/**
 * This device's person on its hub (R21.33), asked again whenever the pairing changes or the connection comes back
 * (a device paired again after a sign-in is someone's now); null for nobody's device, undefined while not known.
 */
export function useMyPerson(pairing: Pairing | null, connected: boolean): PersonRef | null | undefined {
  const [found, setFound] = useState<{ credential: string; person: PersonRef | null } | null>(null);
  useEffect(() => {
    if (!pairing || !connected) return;
    let current = true;
    myPerson(pairing).then(
      (person) => {
        if (current) setFound({ credential: pairing.credential, person });
      },
      // Kept as it was: a hub that cannot answer now does not make the device nobody's.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [pairing, connected]);
  return found && pairing && found.credential === pairing.credential ? found.person : undefined;
}

'use client';
import { useEffect, useState } from 'react';
import { type HubSignIn } from '@/lib/contracts/hub-api';
import { hubSignIn } from '@/lib/client/hub-people-loader';

/**
 * Where this hub's people sign in (R21.32): null on a hub without sign-in (or one that cannot say), undefined until
 * the hub has answered and while `ask` is false (a paired device's inbox has nothing to offer).
 */
export function useHubSignIn(ask: boolean): HubSignIn | null | undefined {
  const [signIn, setSignIn] = useState<HubSignIn | null | undefined>(undefined);
  useEffect(() => {
    if (!ask) return;
    let current = true;
    void hubSignIn().then((found) => {
      if (current) setSignIn(found);
    });
    return () => {
      current = false;
    };
  }, [ask]);
  return ask ? signIn : undefined;
}

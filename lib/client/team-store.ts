import { type HubSignIn } from '../contracts/hub-api';
import { type TeamView } from '../contracts/team-api';
import { hubSignIn } from './hub-people-loader';
import { type Pairing } from './pairing';
import { readTeam } from './team-loader';

// The team as this device's person sees it (GET /api/team, R21.75), one copy for every screen: the cards ask who
// "you" are and whether this device may hand questions over, Settings lists the people. Asked only of a hub that
// signs people in (GET /api/hub): a personal hub's screens never ask, and stay exactly as they were.

export interface TeamStoreDeps {
  signIn(): Promise<HubSignIn | null>;
  read(pairing: Pairing): Promise<TeamView>;
}

export interface TeamSnapshot {
  /** The device's credential the answer is for: a device paired again is someone else's. */
  credential: string;
  /** null: the hub signs nobody in (a personal hub). */
  team: TeamView | null;
}

export interface TeamStore {
  /** Loads the team unless this credential's is here and fresh (or on its way); failures keep what was known. */
  ensure(pairing: Pairing): void;
  /** The connection dropped: what changed meanwhile is asked again on the next `ensure`. */
  markStale(): void;
  /** Asks again now (after a change this device made). */
  refresh(pairing: Pairing): Promise<void>;
  snapshot(): TeamSnapshot | null;
  subscribe(listener: () => void): () => void;
}

export function createTeamStore(deps: TeamStoreDeps): TeamStore {
  let current: TeamSnapshot | null = null;
  let stale = true;
  let inflight: { credential: string; promise: Promise<void> } | null = null;
  const listeners = new Set<() => void>();

  const load = (pairing: Pairing): Promise<void> => {
    const credential = pairing.credential;
    const promise = (async () => {
      const signIn = await deps.signIn();
      const team = signIn === null ? null : await deps.read(pairing);
      if (inflight?.credential !== credential) return;
      current = { credential, team };
      stale = false;
      for (const listener of listeners) listener();
    })()
      .catch(() => undefined)
      .finally(() => {
        if (inflight?.credential === credential) inflight = null;
      });
    inflight = { credential, promise };
    return promise;
  };

  return {
    ensure(pairing) {
      if (inflight?.credential === pairing.credential) return;
      if (!stale && current?.credential === pairing.credential) return;
      void load(pairing);
    },
    markStale() {
      stale = true;
    },
    refresh(pairing) {
      return load(pairing);
    },
    snapshot: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The app's one team store. */
export const teamStore = createTeamStore({ signIn: hubSignIn, read: readTeam });

import { type HubSignIn } from '../contracts/hub-api';
import { type PersonRef } from '../contracts/people';
import type * as HubPeople from './hub-people';
import { type Pairing } from './pairing';

// The screens call these; ./hub-people reads the hub's answers with the contracts' zod schemas, so it loads with
// the first question asked, not with any route's first screen (R13.4).

let loading: Promise<typeof HubPeople> | null = null;

function load(): Promise<typeof HubPeople> {
  loading ??= import('./hub-people').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

// One question per page load: the unpaired screen and /pair both ask, and the answer does not change while
// the hub runs.
let signIn: Promise<HubSignIn | null> | null = null;

/** Whether the hub that served this app signs people in (R21.32); null when it does not or cannot say. */
export function hubSignIn(): Promise<HubSignIn | null> {
  signIn ??= load().then(
    (module) => module.readHubSignIn(),
    () => null,
  );
  return signIn;
}

/** This device's person (R21.33): null for nobody's device; rejects when the hub cannot be asked. */
export async function myPerson(pairing: Pairing): Promise<PersonRef | null> {
  return (await load()).readMyPerson(pairing);
}

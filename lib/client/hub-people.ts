import './zod-csp';
import { HUB_API_PATH, HubInfoSchema, ME_API_PATH, MeResponseSchema, type HubSignIn } from '../contracts/hub-api';
import { type PersonRef } from '../contracts/people';
import { normalizeHostUrl, type Pairing } from './pairing';

// What the app asks the hub about people over HTTP (R21.32, R21.33): never over the socket, whose snapshot and
// stream carry no people (R21.13). Both answers are read with the contracts' schemas; anything else counts as
// "no": a screen that cannot tell stays as it is without people.

/** Whether the hub that served this app signs people in, and where; null when not, or when it cannot tell. */
export async function readHubSignIn(fetchImpl: typeof fetch = fetch): Promise<HubSignIn | null> {
  try {
    const response = await fetchImpl(HUB_API_PATH, { cache: 'no-store', credentials: 'omit' });
    if (!response.ok) return null;
    const info = HubInfoSchema.safeParse(await response.json());
    return info.success ? info.data.signIn : null;
  } catch {
    return null;
  }
}

/**
 * This device's person on the hub it is paired with (R21.33): the credential goes only to that hub, as the socket's
 * does. `null`: the device belongs to nobody (a pairing link, or a hub without sign-in); throws when it cannot tell.
 */
export async function readMyPerson(pairing: Pairing, fetchImpl: typeof fetch = fetch): Promise<PersonRef | null> {
  const response = await fetchImpl(`${normalizeHostUrl(pairing.hostUrl)}${ME_API_PATH}`, {
    headers: { Authorization: `Bearer ${pairing.credential}` },
    cache: 'no-store',
    credentials: 'omit',
  });
  if (!response.ok) throw new Error(`The hub answered ${ME_API_PATH} with HTTP ${response.status}`);
  const me = MeResponseSchema.safeParse(await response.json());
  if (!me.success || me.data.deviceId !== pairing.deviceId) throw new Error(`Unexpected reply to ${ME_API_PATH}`);
  return me.data.person;
}

/**
 * Who is on the other end of an authenticated connection or request (R16.1):
 * - `local-agent`: the agent token (`<dataDir>/token` or ASKAWAY_TOKEN): the runtime side only.
 * - `device`: a paired phone or browser: the remote side (and its push subscription) only.
 * - `machine`: another machine's runtimes joined to this host: the runtime side only.
 */
export type PrincipalKind = 'local-agent' | 'device' | 'machine';

export interface Principal {
  kind: PrincipalKind;
  /** `local` for the agent token; the device's (or machine's) id otherwise. */
  id: string;
  /** What logs and lists call it: the device's or machine's name, or "local agent". */
  name: string;
}

export const LOCAL_AGENT: Principal = { kind: 'local-agent', id: 'local', name: 'local agent' };

/** The outcome of checking a credential; a refusal's message says what the credential is and what to do. */
export type AuthResult =
  | { ok: true; principal: Principal }
  | { ok: false; code: 'unauthorized' | 'device-revoked' | 'machine-revoked'; message: string };

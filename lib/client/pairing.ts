/** This device's pairing with one host (R16.1): its own credential, never the agent token. */
export interface Pairing {
  /** Empty string means "the origin that served this app". */
  hostUrl: string;
  /** The host's machine name, for "This device was removed from <host>". */
  hostName: string;
  deviceId: string;
  /** The name given at pairing; the host's list is the truth after a rename. */
  deviceName: string;
  /** `aw_d_…`: opens the remote side of this host only. */
  credential: string;
}

/**
 * Why this app may not connect until it pairs again: the host revoked it (R16.5), or it still
 * holds the shared token of an install from before device credentials (R16.7).
 */
export interface PairingProblem {
  kind: 'device-revoked' | 'legacy-token';
  hostUrl: string;
  hostName: string;
}

interface Stored {
  pairing: Pairing | null;
  problem: PairingProblem | null;
}

const KEY = 'askaway.pairing';
const NOTHING: Stored = { pairing: null, problem: null };
const listeners = new Set<() => void>();
let cached: Stored | undefined;

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function read(): Stored {
  try {
    const raw = localStorage.getItem(KEY);
    return raw ? fromRecord(JSON.parse(raw) as Record<string, unknown>) : NOTHING;
  } catch {
    return NOTHING;
  }
}

function fromRecord(parsed: Record<string, unknown>): Stored {
  const hostUrl = text(parsed.hostUrl);
  if (parsed.removed === 'device-revoked')
    return { pairing: null, problem: { kind: 'device-revoked', hostUrl, hostName: text(parsed.hostName) } };
  if (typeof parsed.credential === 'string' && parsed.credential !== '' && typeof parsed.deviceId === 'string') {
    const pairing: Pairing = {
      hostUrl,
      hostName: text(parsed.hostName),
      deviceId: parsed.deviceId,
      deviceName: text(parsed.deviceName),
      credential: parsed.credential,
    };
    return { pairing, problem: null };
  }
  // `{hostUrl, token}`: paired with the shared agent token, which no longer opens the app.
  if (typeof parsed.token === 'string')
    return { pairing: null, problem: { kind: 'legacy-token', hostUrl, hostName: '' } };
  return NOTHING;
}

function stored(): Stored {
  if (typeof window === 'undefined') return NOTHING;
  cached ??= read();
  return cached;
}

export function getPairing(): Pairing | null {
  return stored().pairing;
}

export function getPairingProblem(): PairingProblem | null {
  return stored().problem;
}

/** Re-reads what is stored, for when another tab of this app may have changed it. */
function reload(): void {
  cached = read();
  for (const listener of listeners) listener();
}

let followingTabs = false;

/**
 * True when storage holds the pairing of device `deviceId` (another tab stored it); this tab then
 * follows it. Nothing is re-read otherwise: a re-read hands out a new object, and the app would
 * reconnect with the credential it already has.
 */
export function adoptStoredPairing(deviceId: string): boolean {
  if (typeof window === 'undefined' || read().pairing?.deviceId !== deviceId) return false;
  if (getPairing()?.deviceId !== deviceId) reload();
  return true;
}

export function subscribePairing(listener: () => void): () => void {
  listeners.add(listener);
  if (!followingTabs && typeof window !== 'undefined' && typeof window.addEventListener === 'function') {
    followingTabs = true;
    // Another tab paired again or was removed (R16.9): every tab follows the one stored pairing.
    window.addEventListener('storage', (event) => {
      if (event.key === KEY || event.key === null) reload();
    });
  }
  return () => listeners.delete(listener);
}

function write(value: Record<string, unknown> | null): void {
  try {
    if (value === null) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, JSON.stringify(value));
  } catch {
    // Storage unavailable (private mode): the state below still holds for this page.
  }
  cached = value === null ? NOTHING : fromRecord(value);
  for (const listener of listeners) listener();
}

export function savePairing(pairing: Pairing): void {
  write({ ...pairing, hostUrl: normalizeHostUrl(pairing.hostUrl) } satisfies Pairing);
}

/**
 * The host revoked the device `deviceId` (R16.5): its credential is useless, so it goes; the host's
 * name stays for the message. Read afresh, not from this tab's memory: when this device paired again
 * (R16.9), the old id's revocation must not wipe the new credential another tab (or this one) stored.
 */
export function markDeviceRemoved(deviceId: string): void {
  const stored = typeof window === 'undefined' ? null : read().pairing;
  if (stored && stored.deviceId !== deviceId) {
    reload();
    return;
  }
  // Nothing readable stored (private mode, or already marked): this tab's memory decides.
  const pairing = getPairing();
  if (pairing?.deviceId !== deviceId) return;
  write({ removed: 'device-revoked', hostUrl: pairing.hostUrl, hostName: pairing.hostName });
}

/**
 * The host's name for this device (a rename in Settings, here or on another screen of it): kept with
 * the pairing, so the pairing page offers it when this device pairs again (R16.9).
 */
export function rememberDeviceName(deviceId: string, name: string): void {
  const pairing = getPairing();
  if (pairing?.deviceId !== deviceId || pairing.deviceName === name) return;
  savePairing({ ...pairing, deviceName: name });
}

export function forgetPairing(): void {
  write(null);
}

/** "192.168.1.5:4417" → "http://192.168.1.5:4417"; same-origin stays "". */
export function normalizeHostUrl(input: string): string {
  const trimmed = input.trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  const withScheme = /^https?:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  try {
    const url = new URL(withScheme);
    if (typeof window !== 'undefined' && url.origin === window.location.origin) return '';
    return url.origin;
  } catch {
    return withScheme;
  }
}

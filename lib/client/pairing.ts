import { ID_MAX } from '../contracts';
import { randomId } from './random-id';

/** The pairing with one host: where it is, the token, and who this device is (R9.2, R12.1). */
export interface Pairing {
  /** Empty string means "the origin that served this app". */
  hostUrl: string;
  token: string;
  deviceId: string;
  deviceLabel: string;
}

const KEY = 'askaway.pairing';
const DEVICE_KEY = 'askaway.device';
const listeners = new Set<() => void>();
let cached: Pairing | null | undefined;

function defaultDeviceLabel(): string {
  const ua = navigator.userAgent;
  if (/iPhone/.test(ua)) return 'iPhone';
  if (/iPad/.test(ua)) return 'iPad';
  if (/Android/.test(ua)) return /Mobile/.test(ua) ? 'Android phone' : 'Android tablet';
  if (/Mac OS X/.test(ua)) return 'Mac';
  if (/Windows/.test(ua)) return 'Windows';
  if (/Linux/.test(ua)) return 'Linux';
  return 'Browser';
}

/** The device identity survives "forget": it names this browser, not the pairing. */
export function deviceIdentity(): { deviceId: string; deviceLabel: string } {
  try {
    const raw = localStorage.getItem(DEVICE_KEY);
    if (raw) {
      const parsed = JSON.parse(raw) as { deviceId?: unknown; deviceLabel?: unknown };
      if (typeof parsed.deviceId === 'string' && typeof parsed.deviceLabel === 'string') {
        return { deviceId: parsed.deviceId, deviceLabel: parsed.deviceLabel };
      }
    }
  } catch {
    // fall through to a fresh identity
  }
  const identity = { deviceId: randomId(), deviceLabel: defaultDeviceLabel() };
  try {
    localStorage.setItem(DEVICE_KEY, JSON.stringify(identity));
  } catch {
    // storage unavailable: identity lives for this page only
  }
  return identity;
}

function read(): Pairing | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { hostUrl?: unknown; token?: unknown };
    if (typeof parsed.token !== 'string' || parsed.token === '') return null;
    return {
      hostUrl: typeof parsed.hostUrl === 'string' ? parsed.hostUrl : '',
      token: parsed.token,
      ...deviceIdentity(),
    };
  } catch {
    return null;
  }
}

export function getPairing(): Pairing | null {
  if (typeof window === 'undefined') return null;
  if (cached === undefined) cached = read();
  return cached;
}

export function subscribePairing(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notify(): void {
  for (const listener of listeners) listener();
}

export function savePairing(hostUrl: string, token: string): Pairing {
  localStorage.setItem(KEY, JSON.stringify({ hostUrl: normalizeHostUrl(hostUrl), token }));
  cached = read();
  notify();
  return cached ?? { hostUrl, token, ...deviceIdentity() };
}

export function setDeviceLabel(label: string): void {
  const identity = { ...deviceIdentity(), deviceLabel: label.trim().slice(0, ID_MAX) || defaultDeviceLabel() };
  localStorage.setItem(DEVICE_KEY, JSON.stringify(identity));
  cached = read();
  notify();
}

export function forgetPairing(): void {
  localStorage.removeItem(KEY);
  cached = null;
  notify();
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

import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BOOT_DEVICE,
  BOOT_HOST_VARIABLES,
  BOOT_PAIR,
  BOOT_SAME_HOST,
  EARLY_SUBMIT,
  FIRST_PAINT_SCRIPT,
} from './first-paint';

const ORIGIN = 'https://phone.test';

interface Booted {
  attributes: Record<string, string>;
  variables: Record<string, string>;
  /** Dispatches a submit of a form with these attributes, as the browser would; true when it was prevented. */
  submit(attributes: readonly string[]): boolean;
  page: { __askawayEarlySubmit?: () => boolean };
}

/** Runs the inline script as the page would, with this stored pairing and fragment; what it wrote on <html>. */
function boot(stored: unknown, hash = ''): Booted {
  const attributes: Record<string, string> = {};
  const variables: Record<string, string> = {};
  const root = {
    setAttribute: (name: string, value: string) => void (attributes[name] = value),
    style: { setProperty: (name: string, value: string) => void (variables[name] = value) },
  };
  const raw = stored === undefined ? null : typeof stored === 'string' ? stored : JSON.stringify(stored);
  const storage = { getItem: (key: string) => (key === 'askaway.pairing' ? raw : null) };
  const location = { hash, origin: ORIGIN, host: 'phone.test' };
  const listeners = new Set<(event: unknown) => void>();
  const document = {
    documentElement: root,
    addEventListener: (_type: string, listener: (event: unknown) => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: (event: unknown) => void) => listeners.delete(listener),
  };
  const page: Booted['page'] = {};
  // The script is a string for a <script> tag: evaluating it is the point of this test.
  new Function('document', 'localStorage', 'location', 'window', FIRST_PAINT_SCRIPT)(document, storage, location, page);
  const submit = (names: readonly string[]) => {
    let prevented = false;
    const event = {
      target: { hasAttribute: (name: string) => names.includes(name) },
      preventDefault: () => (prevented = true),
    };
    for (const listener of listeners) listener(event);
    return prevented;
  };
  return { attributes, variables, submit, page };
}

/** What ./pairing.ts makes of the same stored value: the app's own answer, after hydration. */
async function appReading(stored: unknown) {
  const raw = typeof stored === 'string' ? stored : JSON.stringify(stored);
  vi.stubGlobal('window', { location: { origin: ORIGIN } });
  vi.stubGlobal('localStorage', { getItem: () => raw, setItem: () => undefined, removeItem: () => undefined });
  vi.resetModules();
  const pairing = await import('./pairing');
  const problem = pairing.getPairingProblem();
  const device = pairing.getPairing()
    ? 'paired'
    : problem?.kind === 'device-revoked'
      ? 'removed'
      : problem?.kind === 'legacy-token'
        ? 'legacy'
        : 'unpaired';
  return { device, normalizeHostUrl: pairing.normalizeHostUrl, hostUrl: pairing.getPairing()?.hostUrl };
}

const PAIRED = {
  hostUrl: 'http://10.0.0.2:4417',
  hostName: 'workstation',
  deviceId: '0123456789abcdef',
  deviceName: 'Phone',
  credential: 'aw_d_0123456789abcdef_secret',
};

afterEach(() => vi.unstubAllGlobals());

describe('the first paint decided in <head> (R9.14)', () => {
  const cases: [string, unknown][] = [
    ['nothing stored', undefined],
    ['paired', PAIRED],
    ['paired with the host that served the app', { ...PAIRED, hostUrl: '' }],
    ['revoked', { removed: 'device-revoked', hostUrl: PAIRED.hostUrl, hostName: 'workstation' }],
    ['the old shared token', { hostUrl: '', token: 'agent-token' }],
    ['a credential without a device id', { hostUrl: '', credential: 'aw_d_x_y' }],
    ['not JSON', '{paired'],
    ['not an object', '42'],
  ];
  for (const [label, stored] of cases) {
    it(`[R9.14] says what the app says about the device: ${label}`, async () => {
      const { device } = await appReading(stored ?? '');
      expect(boot(stored).attributes[BOOT_DEVICE]).toBe(device);
    });
  }

  it('[R9.14] names the hosts the first screens show, as CSS strings', () => {
    const removed = boot({ removed: 'device-revoked', hostUrl: PAIRED.hostUrl, hostName: 'my "box" \\ 2' });
    expect(removed.variables[BOOT_HOST_VARIABLES.removedHost]).toBe('"my \\"box\\" \\\\ 2"');
    expect(removed.variables[BOOT_HOST_VARIABLES.hostName]).toBe('"my \\"box\\" \\\\ 2"');
    const unnamed = boot({ removed: 'device-revoked', hostUrl: PAIRED.hostUrl, hostName: '' });
    expect(unnamed.variables[BOOT_HOST_VARIABLES.removedHost]).toBe(`"${PAIRED.hostUrl}"`);
    // No name: the markup's own fallback ("the computer running Askaway") shows.
    expect(unnamed.variables[BOOT_HOST_VARIABLES.hostName]).toBeUndefined();
    expect(boot({ ...PAIRED, hostName: '' }).variables[BOOT_HOST_VARIABLES.pairedHost]).toBe(`"${PAIRED.hostUrl}"`);
    expect(boot(undefined).variables[BOOT_HOST_VARIABLES.pairedHost]).toBe('"phone.test"');
  });

  it('[R9.14][R16.2] on /pair, tells a link with a code from an old token link and from a typed code', () => {
    const link = boot(undefined, '#code=ABCDE-FGHJK&host=http%3A%2F%2Fhub.lan%3A4417');
    expect(link.attributes[BOOT_PAIR]).toBe('link');
    expect(link.variables[BOOT_HOST_VARIABLES.linkHost]).toBe('"http://hub.lan:4417"');
    const sameOrigin = boot(undefined, '#code=ABCDE-FGHJK');
    expect(sameOrigin.variables[BOOT_HOST_VARIABLES.linkHost]).toBe('"phone.test"');
    expect(boot(undefined, '#token=old').attributes[BOOT_PAIR]).toBe('legacy');
    expect(boot(undefined, '').attributes[BOOT_PAIR]).toBe('manual');
    expect(boot(undefined, '#main').attributes[BOOT_PAIR]).toBe('manual');
  });

  it('[R9.14][R16.9] knows when the pairing page pairs again with the host this device is paired with', async () => {
    const { normalizeHostUrl, hostUrl } = await appReading(PAIRED);
    for (const host of ['10.0.0.2:4417', 'http://10.0.0.2:4417/', 'hub.lan:4417', '']) {
      const same = normalizeHostUrl(host) === hostUrl;
      const hash = host ? `#code=C&host=${encodeURIComponent(host)}` : '#code=C';
      expect(BOOT_SAME_HOST in boot(PAIRED, hash).attributes, host).toBe(same);
    }
    // A typed code (no link) pairs with the address typed, empty at first: this origin.
    expect(BOOT_SAME_HOST in boot({ ...PAIRED, hostUrl: '' }).attributes).toBe(true);
    expect(BOOT_SAME_HOST in boot(PAIRED).attributes).toBe(false);
    expect(BOOT_SAME_HOST in boot(undefined).attributes).toBe(false);
  });

  it('[R9.14][R16.2] a tap on Pair before the code runs is kept for it, once; other forms are left alone', () => {
    const booted = boot(undefined, '#code=C');
    expect(booted.submit(['action'])).toBe(false);
    expect(booted.submit([EARLY_SUBMIT])).toBe(true);
    expect(booted.page.__askawayEarlySubmit?.()).toBe(true);
    // Taken: the page no longer listens, and says so once only.
    expect(booted.submit([EARLY_SUBMIT])).toBe(false);
    expect(booted.page.__askawayEarlySubmit?.()).toBe(false);
    expect(boot(undefined).page.__askawayEarlySubmit?.()).toBe(false);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** localStorage as the browser has it, for the pairing module's node test. */
function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
    raw: (key: string) => items.get(key),
  };
}

async function load(stored?: object) {
  const storage = memoryStorage(stored ? { 'askaway.pairing': JSON.stringify(stored) } : {});
  vi.stubGlobal('window', { location: { origin: 'https://phone.test' } });
  vi.stubGlobal('localStorage', storage);
  vi.resetModules();
  return { pairing: { ...(await import('./pairing')), ...(await import('./pairing-replacement')) }, storage };
}

const PAIRED = {
  hostUrl: 'http://10.0.0.2:4417',
  hostName: 'workstation',
  deviceId: '0123456789abcdef',
  deviceName: 'Phone',
  credential: 'aw_d_0123456789abcdef_secret',
};

/** The same device paired again: a new id and credential. */
const REPAIRED = { ...PAIRED, deviceId: 'fedcba9876543210', credential: 'aw_d_fedcba9876543210_new' };

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('pairing kept on the device', () => {
  it('[R16.7] an app paired with the old shared token has no pairing, and is told to pair again', async () => {
    const { pairing } = await load({ hostUrl: '', token: 'the-old-shared-token' });
    expect(pairing.getPairing()).toBeNull();
    expect(pairing.getPairingProblem()).toEqual({ kind: 'legacy-token', hostUrl: '', hostName: '' });
  });

  it('[R16.5] a revoked device drops its credential and keeps the host name for the message', async () => {
    const { pairing, storage } = await load(PAIRED);
    expect(pairing.getPairing()).toEqual(PAIRED);
    const heard: unknown[] = [];
    pairing.subscribePairing(() => heard.push(pairing.getPairingProblem()));
    pairing.markDeviceRemoved(PAIRED.deviceId);
    expect(pairing.getPairing()).toBeNull();
    expect(heard).toEqual([{ kind: 'device-revoked', hostUrl: PAIRED.hostUrl, hostName: 'workstation' }]);
    expect(storage.raw('askaway.pairing')).not.toContain('aw_d_');
    pairing.savePairing({ ...PAIRED, hostUrl: 'https://phone.test/' });
    expect(pairing.getPairingProblem()).toBeNull();
    expect(pairing.getPairing()?.hostUrl).toBe('');
  });

  it('[R16.9] the revocation of a credential this device already replaced leaves the new pairing alone', async () => {
    const { pairing, storage } = await load(PAIRED);
    expect(pairing.getPairing()).toEqual(PAIRED);
    // Another tab paired again: storage holds the new credential, this tab's memory the old one.
    storage.setItem('askaway.pairing', JSON.stringify(REPAIRED));
    const heard: unknown[] = [];
    pairing.subscribePairing(() => heard.push(pairing.getPairing()));
    pairing.markDeviceRemoved(PAIRED.deviceId);
    expect(heard).toEqual([REPAIRED]);
    expect(pairing.getPairingProblem()).toBeNull();
    expect(JSON.parse(storage.raw('askaway.pairing') ?? 'null')).toEqual(REPAIRED);
  });

  it('[R16.9] paired again: the tab follows the new credential when it is stored, and marks nothing removed', async () => {
    vi.useFakeTimers();
    const { pairing, storage } = await load(PAIRED);
    pairing.followReplacement(PAIRED.deviceId, REPAIRED.deviceId, 1_000);
    // The pairing tab's response arrives after the revocation reached this tab.
    pairing.savePairing(REPAIRED);
    vi.advanceTimersByTime(5_000);
    expect(pairing.getPairing()).toEqual(REPAIRED);
    expect(pairing.getPairingProblem()).toBeNull();
    expect(JSON.parse(storage.raw('askaway.pairing') ?? 'null')).toEqual(REPAIRED);
  });

  it('[R16.9] paired again in another tab that already stored the new credential: followed at once', async () => {
    const { pairing, storage } = await load(PAIRED);
    // This tab holds the old credential; storage, the new one (the storage event is still on its way).
    expect(pairing.getPairing()).toEqual(PAIRED);
    storage.setItem('askaway.pairing', JSON.stringify(REPAIRED));
    const heard: unknown[] = [];
    pairing.subscribePairing(() => heard.push(pairing.getPairing()));
    pairing.followReplacement(PAIRED.deviceId, REPAIRED.deviceId, 1_000);
    expect(heard).toEqual([REPAIRED]);
  });

  it('[R16.9] while it waits, the old pairing is not handed out again (a new object would reconnect with it)', async () => {
    vi.useFakeTimers();
    const { pairing } = await load(PAIRED);
    const before = pairing.getPairing();
    const heard: unknown[] = [];
    pairing.subscribePairing(() => heard.push(pairing.getPairing()));
    pairing.followReplacement(PAIRED.deviceId, REPAIRED.deviceId, 1_000);
    vi.advanceTimersByTime(500);
    expect(heard).toEqual([]);
    expect(pairing.getPairing()).toBe(before);
  });

  it('[R16.9] paired again, but the new credential never arrives: after the wait the device is removed', async () => {
    vi.useFakeTimers();
    const { pairing } = await load(PAIRED);
    pairing.followReplacement(PAIRED.deviceId, REPAIRED.deviceId, 1_000);
    vi.advanceTimersByTime(999);
    expect(pairing.getPairing()).toEqual(PAIRED);
    vi.advanceTimersByTime(1);
    expect(pairing.getPairing()).toBeNull();
    expect(pairing.getPairingProblem()).toMatchObject({ kind: 'device-revoked', hostName: 'workstation' });
  });

  it('[R16.9] keeps the host’s name for this device, so pairing again offers it; another device’s name changes nothing', async () => {
    const { pairing, storage } = await load(PAIRED);
    pairing.rememberDeviceName('fedcba9876543210', 'Someone else');
    expect(pairing.getPairing()?.deviceName).toBe('Phone');
    pairing.rememberDeviceName(PAIRED.deviceId, 'Pixel in the kitchen');
    expect(pairing.getPairing()).toEqual({ ...PAIRED, deviceName: 'Pixel in the kitchen' });
    expect(JSON.parse(storage.raw('askaway.pairing') ?? 'null')).toMatchObject({ deviceName: 'Pixel in the kitchen' });
  });

  it('[R16.4] describes the device for the host’s list', async () => {
    const names = await import('./device-names');
    const pixel =
      'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
    const iphone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
    expect(names.platformDescription(pixel)).toBe('Android · Chrome');
    expect(names.defaultDeviceName(pixel)).toBe('Android phone');
    expect(names.platformDescription(iphone)).toBe('iPhone · Safari');
    expect(names.platformDescription('curl/8')).toBe('Browser');
  });
});

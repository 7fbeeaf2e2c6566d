import { adoptStoredPairing, getPairing, markDeviceRemoved, subscribePairing } from './pairing';

// Apart from ./pairing, which every first screen loads: only the live connection needs this.

/** How long a tab waits for the tab that paired again to store the new credential (R16.9). */
const REPLACEMENT_WAIT_MS = 15_000;

/**
 * This device paired again (R16.9): the host revoked `deviceId` for the new device `byDeviceId`. The tab
 * that paired stores the new credential when its response arrives, and every tab follows it (the storage
 * event). Nothing is marked removed meanwhile: localStorage is no lock between tabs, and a tab writing
 * "removed" on a stale read could overwrite the new credential. Only if it never arrives (that tab's
 * response was lost) is the device marked removed.
 */
export function followReplacement(deviceId: string, byDeviceId: string, waitMs = REPLACEMENT_WAIT_MS): void {
  // Another tab may have stored it already.
  if (adoptStoredPairing(byDeviceId)) return;
  const unsubscribe = subscribePairing(() => {
    if (getPairing()?.deviceId !== byDeviceId) return;
    clearTimeout(timer);
    unsubscribe();
  });
  const timer = setTimeout(() => {
    unsubscribe();
    markDeviceRemoved(deviceId);
  }, waitMs);
}

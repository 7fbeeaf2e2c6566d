import './zod-csp';
import { XHR } from 'engine.io-client';
import { io, type Socket } from 'socket.io-client';
import { type RemoteClientToServerEvents, type RemoteServerToClientEvents } from '../contracts';
import { appStore } from './app-store';
import { createConnection } from './connection';
import { earlyWebSocketTransport } from './early-socket';
import { deleteOutboxEntry, loadOutboxEntries, putOutboxEntry } from './outbox-db';
import { getPairing, markDeviceRemoved, rememberDeviceName, type Pairing } from './pairing';
import { followReplacement } from './pairing-replacement';
import { attachPushChannel } from './push/channel';
import { clearCachedHost, loadCachedHost, scheduleCacheSave } from './state-cache';
import { markConnected, markSynced, recordProtocolError } from './test-hook';
import { forgetWorkerDevice, rememberWorkerDevice } from './worker-device';

// The app's one connection, wired to the real things: socket.io, IndexedDB, the browser's
// network and visibility events, push, and the test hook. Everything else is in ./connection.
// Screens reach it through ./connection-loader, which loads this module after the first paint.

const connection = createConnection({
  store: appStore,
  openSocket(url, auth, pairing) {
    const socket: Socket<RemoteServerToClientEvents, RemoteClientToServerEvents> = io(url, {
      auth: (send) => send(auth()),
      // The first connect takes over the socket <head> opened for this pairing (./early-socket.ts); polling if
      // websockets do not get through.
      transports: [earlyWebSocketTransport(pairing.hostUrl, pairing.credential), XHR],
      reconnectionDelay: 400,
      reconnectionDelayMax: 4_000,
      randomizationFactor: 0.3,
      timeout: 8_000,
    });
    attachPushChannel(socket);
    return socket;
  },
  outbox: { load: loadOutboxEntries, put: putOutboxEntry, delete: deleteOutboxEntry },
  hostCache: { load: loadCachedHost, save: scheduleCacheSave, clear: clearCachedHost },
  isOffline: () => navigator.onLine === false,
  onConnect: markConnected,
  onSynced: markSynced,
  onProtocolError: recordProtocolError,
  onRevoked: (deviceId) => {
    markDeviceRemoved(deviceId);
    void forgetWorkerDevice(deviceId).catch(() => undefined);
  },
  onReplaced: followReplacement,
});

// The pairing keeps the host's name for this device, which a rename changes.
let devicesSeen = appStore.getState().host.devices;
appStore.subscribe(() => {
  const { devices } = appStore.getState().host;
  if (devices === devicesSeen) return;
  devicesSeen = devices;
  const deviceId = getPairing()?.deviceId;
  const name = deviceId === undefined ? undefined : devices.get(deviceId)?.name;
  if (deviceId !== undefined && name !== undefined) rememberDeviceName(deviceId, name);
});

let windowHooked = false;

function hookWindow(): void {
  if (windowHooked || typeof window === 'undefined') return;
  windowHooked = true;
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') connection.wake();
  });
  window.addEventListener('online', () => connection.wake());
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) connection.wake();
  });
  window.addEventListener('offline', () => connection.wentOffline());
}

/** Connects (or reconnects with new credentials). Idempotent for the same pairing. */
export function startConnection(pairing: Pairing | null): void {
  hookWindow();
  connection.start(pairing);
  // The service worker answers from notifications with this device's credential (R14.10).
  void rememberWorkerDevice(pairing).catch(() => undefined);
}

export const forgetHost = connection.forget;
export const submitResponse = connection.submitResponse;
export const updatePreferences = connection.updatePreferences;
export const loadMorePending = connection.loadMorePending;

import { type Presence } from '../../contracts/push';

/** The part of the remote's socket.io socket that push needs. */
export interface PushChannelSocket {
  readonly connected: boolean;
  on(event: 'connect', listener: () => void): unknown;
  emit(event: string, ...args: unknown[]): unknown;
}

const REQUEST_TIMEOUT_MS = 10_000;

let current: PushChannelSocket | null = null;
let documentHooked = false;
const listeners = new Set<() => void>();

/**
 * Hands the remote's socket to push: reports whether the app is visible (the host sends
 * no push to a device that is looking) on every (re)connect and visibility change, and
 * carries the settings page's push requests. Call once per socket the app creates.
 */
export function attachPushChannel(socket: PushChannelSocket, doc: Document | undefined = globalThis.document): void {
  current = socket;
  socket.on('connect', () => {
    reportPresence(doc);
    for (const listener of listeners) listener();
  });
  if (socket.connected) reportPresence(doc);
  if (doc && !documentHooked) {
    documentHooked = true;
    doc.addEventListener('visibilitychange', () => reportPresence(doc));
  }
  for (const listener of listeners) listener();
}

/** Calls back when the channel changes or reconnects (the settings page re-reads its status then). */
export function onPushChannelChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function pushChannelConnected(): boolean {
  return current?.connected === true;
}

function reportPresence(doc: Document | undefined): void {
  const visible = doc?.visibilityState === 'visible';
  if (current?.connected) current.emit('presence', { visible } satisfies Presence);
  // The person is looking at the inbox now: the notifications have done their job.
  if (visible) void closeShownNotifications();
}

/** One acked request to the host, or a rejection when disconnected or unanswered. */
export function pushRequest(event: string, payload?: unknown): Promise<unknown> {
  const socket = current;
  if (!socket?.connected) return Promise.reject(new Error('not-connected'));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), REQUEST_TIMEOUT_MS);
    const ack = (result: unknown) => {
      clearTimeout(timer);
      resolve(result);
    };
    if (payload === undefined) socket.emit(event, ack);
    else socket.emit(event, payload, ack);
  });
}

/** Closes every notification this app shows (used when the app comes to the foreground). */
export async function closeShownNotifications(): Promise<number> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return 0;
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration?.getNotifications) return 0;
  const shown = await registration.getNotifications();
  for (const notification of shown) notification.close();
  return shown.length;
}

import '../zod-csp';
import {
  PushStatusAckSchema,
  PushSubscriptionJsonSchema,
  PushTestAckSchema,
  PushVapidKeyAckSchema,
  type PushStatus,
  type PushTestAck,
} from '../../contracts/push';
import { errorMessage } from '../../contracts/unknown';
import { describeIssues, type IssueLike } from '../protocol-error';
import { pushRequest } from './channel';
import { PushClientError } from './push-error';

export async function getPushStatus(): Promise<PushStatus> {
  return statusFrom(await pushRequest('push:status'));
}

/**
 * Turns notifications on for this device. Must run inside a click handler: the permission
 * prompt comes first, before any await, because Safari only shows it during a user gesture.
 */
export async function enablePush(): Promise<PushStatus> {
  const permission = await Notification.requestPermission();
  if (permission === 'denied') throw new PushClientError('denied');
  if (permission !== 'granted') throw new PushClientError('dismissed');
  const registration = await readyRegistration();
  const key = PushVapidKeyAckSchema.safeParse(await request('push:vapid-key'));
  if (!key.success) throw new PushClientError('host-refused', unexpected('push:vapid-key', key.error.issues));
  if (!key.data.ok) throw new PushClientError('host-refused', 'The host has no push key');
  const applicationServerKey = base64UrlToBytes(key.data.publicKey);

  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, applicationServerKey)) {
    // Subscribed for another host key (data dir reset): a browser allows one key per worker.
    await subscription.unsubscribe();
    subscription = null;
  }
  try {
    subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
  } catch (error) {
    throw new PushClientError('subscribe-failed', errorMessage(error));
  }
  const json = PushSubscriptionJsonSchema.safeParse(subscription.toJSON());
  if (!json.success) throw new PushClientError('subscribe-failed', 'The browser returned an unusable subscription');
  return statusFrom(await request('push:subscribe', { subscription: json.data }));
}

/** Turns notifications off for this device, on both ends. */
export async function disablePush(): Promise<PushStatus> {
  const registration = await navigator.serviceWorker?.getRegistration();
  const subscription = await registration?.pushManager?.getSubscription();
  await subscription?.unsubscribe().catch(() => false);
  return statusFrom(await request('push:unsubscribe', {}));
}

export async function sendTestPush(): Promise<Extract<PushTestAck, { ok: true }>> {
  const ack = PushTestAckSchema.safeParse(await request('push:test', {}));
  if (!ack.success) throw new PushClientError('host-refused', unexpected('push:test', ack.error.issues));
  if (!ack.data.ok) throw new PushClientError('host-refused', ack.data.error.message);
  return ack.data;
}

/** Sets or clears (empty text) the host's ntfy topic URL. */
export async function setNtfyTopic(topicUrl: string): Promise<PushStatus> {
  const trimmed = topicUrl.trim();
  return statusFrom(await request('push:ntfy', { topicUrl: trimmed === '' ? null : trimmed }));
}

async function request(event: string, payload?: unknown): Promise<unknown> {
  try {
    return await pushRequest(event, payload);
  } catch (error) {
    throw new PushClientError('not-connected', errorMessage(error));
  }
}

function statusFrom(raw: unknown): PushStatus {
  const ack = PushStatusAckSchema.safeParse(raw);
  if (!ack.success) throw new PushClientError('host-refused', unexpected('push status', ack.error.issues));
  if (!ack.data.ok) throw new PushClientError('host-refused', ack.data.error.message);
  return ack.data.status;
}

/** A malformed answer from the host, naming the broken rule (shown in Settings, and logged). */
function unexpected(message: string, issues: readonly IssueLike[]): string {
  const text = `Unexpected answer from the host (${message}): ${describeIssues(issues)}`;
  console.warn(`askaway: ${text}`);
  return text;
}

async function readyRegistration(): Promise<ServiceWorkerRegistration> {
  if (!('serviceWorker' in navigator)) throw new PushClientError('no-worker');
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration?.active)
    throw new PushClientError('no-worker', 'The app is still installing; try again in a moment');
  return registration;
}

export function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(value.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

function sameKey(current: ArrayBuffer | null, wanted: Uint8Array): boolean {
  if (!current) return false;
  const bytes = new Uint8Array(current);
  return bytes.length === wanted.length && bytes.every((byte, index) => byte === wanted[index]);
}

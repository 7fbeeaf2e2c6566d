import { INBOX_PATH, PUSH_BODY_MAX, PUSH_TAG_MAX, PUSH_TITLE_MAX, PUSH_URL_MAX } from '../../contracts/push-constants';
import {
  type NotificationData,
  type PushClosePayload,
  type PushPayload,
  type PushShowPayload,
} from '../../contracts/push';
import { isRecord } from '../../contracts/unknown';
import { deleteOutboxEntry, loadOutboxEntries, putOutboxEntry } from '../outbox-db';
import { randomId } from '../random-id';
import { readWorkerDevice } from '../worker-device';
import {
  ANSWER_SYNC_TAG,
  answerFromNotification,
  flushQueuedAnswers,
  notificationActions,
  pressedAnswer,
  readAnswerable,
  type AnswerDeps,
} from './notification-answers';

/*
 * The service worker's side of push notifications (R14). The project compiles with the
 * DOM lib only, so the worker globals used here are typed structurally below.
 */

interface ExtendableEventLike {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushEventLike extends ExtendableEventLike {
  readonly data: { text(): string } | null;
}
interface SyncEventLike extends ExtendableEventLike {
  readonly tag: string;
}
interface NotificationEventLike extends ExtendableEventLike {
  /** The pressed button's action; empty for a tap on the notification itself. */
  readonly action?: string;
  readonly notification: {
    readonly data: unknown;
    readonly title: string;
    readonly tag: string;
    readonly timestamp?: number;
    close(): void;
  };
}
export interface WindowClientLike {
  readonly url: string;
  readonly focused?: boolean;
  focus(): Promise<unknown>;
  navigate?(url: string): Promise<unknown>;
}
export interface ClientsLike {
  matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClientLike[]>;
  openWindow(url: string): Promise<unknown>;
}
export type NotificationRegistration = Pick<ServiceWorkerRegistration, 'showNotification' | 'getNotifications'>;
/** Background Sync's part of the registration (Chrome, Edge; absent in Firefox and Safari). */
interface SyncRegistration {
  readonly sync?: { register(tag: string): Promise<void> };
}

export interface PushWorkerScope {
  readonly location: { readonly origin: string };
  readonly registration: NotificationRegistration & SyncRegistration;
  readonly clients: ClientsLike;
  readonly navigator?: { readonly language?: string };
  /** `Notification.maxActions`: how many buttons this platform shows (none where it shows none). */
  readonly Notification?: { readonly maxActions?: number };
  fetch?(url: string, init: RequestInit): Promise<Response>;
  addEventListener(type: 'push', listener: (event: PushEventLike) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEventLike) => void): void;
  addEventListener(type: 'sync', listener: (event: SyncEventLike) => void): void;
}

/** Adds the push, close, notificationclick and sync handlers to the worker. Call once from the worker's entry. */
export function registerPushHandlers(
  scope: PushWorkerScope = self as unknown as PushWorkerScope,
  deps: AnswerDeps = workerAnswerDeps(scope),
): void {
  scope.addEventListener('push', (event) => {
    const text = readPushText(event);
    event.waitUntil(
      answerButtons(scope, deps)
        .then((maxActions) => handlePush(text, scope.registration, scope.navigator?.language, maxActions))
        // The worker runs: answers pressed offline go now (R14.11).
        .then(() => flushQueuedAnswers(scope.registration, deps)),
    );
  });
  scope.addEventListener('notificationclick', (event) => {
    const { notification } = event;
    const open = () => {
      notification.close();
      return openTarget(notificationTargetUrl(notification.data, scope.location.origin), scope.clients);
    };
    const data = readAnswerable(notification.data);
    const answer = pressedAnswer(data, event.action ?? '');
    if (!data || !answer) {
      event.waitUntil(open());
      return;
    }
    // A button (R14.8): answered here, without opening a window, and the notification replaced by its receipt;
    // with nothing to answer with (no paired device here) the card opens instead.
    event.waitUntil(
      flushQueuedAnswers(scope.registration, deps)
        .then(() => answerFromNotification(notification, data, answer, scope.registration, deps))
        .then((answered) => (answered ? undefined : open())),
    );
  });
  // Back online after a press left its answer queued (R14.11). A rejection makes the browser try again later.
  scope.addEventListener('sync', (event) => {
    if (event.tag !== ANSWER_SYNC_TAG) return;
    event.waitUntil(
      flushQueuedAnswers(scope.registration, deps).then((left) => {
        if (left > 0) throw new Error(`${left} answer(s) still queued`);
      }),
    );
  });
}

/** How many answer buttons a notification gets here: none when turned off, unpaired, or unsupported (R14.12). */
async function answerButtons(scope: PushWorkerScope, deps: AnswerDeps): Promise<number> {
  const maxActions = scope.Notification?.maxActions ?? 0;
  if (maxActions <= 0) return 0;
  const device = await deps.readDevice().catch(() => undefined);
  return device?.answerButtons ? maxActions : 0;
}

function workerAnswerDeps(scope: PushWorkerScope): AnswerDeps {
  return {
    origin: scope.location.origin,
    language: scope.navigator?.language,
    fetch: (url, init) => (scope.fetch ? scope.fetch(url, init) : fetch(url, init)),
    readDevice: readWorkerDevice,
    outbox: { load: loadOutboxEntries, put: putOutboxEntry, delete: deleteOutboxEntry },
    newId: randomId,
    now: Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    requestSync: async () => {
      await scope.registration.sync?.register(ANSWER_SYNC_TAG);
    },
  };
}

function readPushText(event: PushEventLike): string | undefined {
  try {
    return event.data?.text();
  } catch {
    return undefined;
  }
}

/**
 * Shows or closes notifications for one push. A push the worker cannot read still shows
 * something: browsers require every push to be visible, and it still means "look".
 */
export async function handlePush(
  text: string | undefined,
  registration: NotificationRegistration,
  language?: string,
  maxActions = 0,
): Promise<void> {
  const payload = parsePushPayload(text);
  if (!payload) {
    await registration.showNotification('Askaway', {
      body: 'Something is waiting for you.',
      tag: 'askaway-generic',
      data: { kind: 'summary', url: INBOX_PATH },
    });
    return;
  }
  if (payload.type === 'close') await closeNotifications(registration, payload);
  else {
    const { title, options } = notificationFor(payload, language, maxActions);
    await registration.showNotification(title, options);
  }
}

/** Takes back the notifications of interactions answered elsewhere. */
export async function closeNotifications(
  registration: NotificationRegistration,
  payload: PushClosePayload,
): Promise<number> {
  let closed = 0;
  for (const tag of payload.tags) {
    for (const notification of await registration.getNotifications({ tag })) {
      // A receipt of an answer already settled (R14.11) says what happened and closes by itself.
      if (readAnswerable(notification.data)?.receipt === 'final') continue;
      notification.close();
      closed += 1;
    }
  }
  return closed;
}

/**
 * Title and options for one show push. Answer buttons (R14.8, R14.9) only as many as `maxActions` (0 where
 * the device shows none or they are turned off). `renotify: false` keeps a repeated tag from buzzing again.
 */
export function notificationFor(
  payload: PushShowPayload,
  language?: string,
  maxActions = 0,
): { title: string; options: NotificationOptions } {
  const deadline = payload.deadlineAt ? deadlineLine(payload.deadlineAt, language) : '';
  const actions = notificationActions(payload.data, maxActions, language);
  const options: NotificationOptions & {
    renotify: boolean;
    timestamp: number;
    actions?: { action: string; title: string }[];
  } = {
    body: [payload.body, deadline].filter(Boolean).join('\n'),
    tag: payload.tag,
    renotify: false,
    timestamp: Date.parse(payload.timestamp),
    icon: '/icons/icon-192.png',
    data: payload.data,
    ...(actions.length > 0 ? { actions } : {}),
  };
  return { title: payload.title, options };
}

function deadlineLine(deadlineAt: string, language: string | undefined): string {
  const at = new Date(deadlineAt);
  if (Number.isNaN(at.getTime())) return '';
  const zh = language?.toLowerCase().startsWith('zh') ?? false;
  let time: string;
  try {
    time = new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit' }).format(at);
  } catch {
    time = at.toISOString().slice(11, 16);
  }
  return zh ? `代理将在 ${time} 自行继续` : `Agent continues on its own at ${time}`;
}

/**
 * Where tapping a notification leads: its card, or the inbox. Only paths of this origin:
 * a payload can never send the app to another site.
 */
export function notificationTargetUrl(notificationData: unknown, origin: string): string {
  const inbox = new URL(INBOX_PATH, origin).href;
  const data = readNotificationData(notificationData);
  if (!data) return inbox;
  const { url } = data;
  if (!url.startsWith('/') || url.startsWith('//') || url.startsWith('/\\')) return inbox;
  try {
    const target = new URL(url, origin);
    return target.origin === new URL(origin).origin ? target.href : inbox;
  } catch {
    return inbox;
  }
}

/** Brings an open window of the app to the card (focused windows first), or opens one. */
export async function openTarget(url: string, clients: ClientsLike): Promise<void> {
  const origin = new URL(url).origin;
  const windows = (await clients.matchAll({ type: 'window', includeUncontrolled: true })).filter((client) => {
    try {
      return new URL(client.url).origin === origin;
    } catch {
      return false;
    }
  });
  const client =
    windows.find((candidate) => candidate.url === url) ?? windows.find((candidate) => candidate.focused) ?? windows[0];
  if (client) {
    if (client.url !== url && client.navigate) {
      try {
        await client.navigate(url);
      } catch {
        // An uncontrolled window cannot be navigated by the worker: open the card beside it.
        await clients.openWindow(url);
        return;
      }
    }
    await client.focus();
    return;
  }
  await clients.openWindow(url);
}

/*
 * Hand-written checks of the host's payload (PushPayloadSchema in lib/contracts/push.ts):
 * zod would add ~90 KB gzip to a worker that needs only these few fields.
 */
const isString = (value: unknown, max: number): value is string => typeof value === 'string' && value.length <= max;

export function parsePushPayload(text: string | undefined): PushPayload | undefined {
  let value: unknown;
  try {
    value = text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  if (value.type === 'close') {
    const tags = value.tags;
    if (
      !Array.isArray(tags) ||
      tags.length === 0 ||
      !tags.every((tag) => isString(tag, PUSH_TAG_MAX) && tag.length > 0)
    )
      return undefined;
    return { type: 'close', tags: tags as string[] };
  }
  if (value.type !== 'show') return undefined;
  const data = readNotificationData(value.data);
  const { tag, title, body, timestamp, deadlineAt } = value;
  if (
    !data ||
    !isString(tag, PUSH_TAG_MAX) ||
    !tag ||
    !isString(title, PUSH_TITLE_MAX) ||
    !isString(body, PUSH_BODY_MAX) ||
    !isString(timestamp, 64)
  )
    return undefined;
  if (deadlineAt !== undefined && !isString(deadlineAt, 64)) return undefined;
  return { type: 'show', tag, title, body, timestamp, data, ...(deadlineAt === undefined ? {} : { deadlineAt }) };
}

function readNotificationData(value: unknown): NotificationData | undefined {
  const read = readAnswerable(value);
  if (!read || !isString(read.url, PUSH_URL_MAX)) return undefined;
  // A receipt is the worker's own word, never a push's. An answer's response is checked again by the host.
  const { receipt: _receipt, ...data } = read;
  return data as NotificationData;
}

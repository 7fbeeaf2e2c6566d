import {
  NOTIFICATION_ANSWERS_MAX,
  PUSH_TAG_MAX,
  PUSH_TITLE_MAX,
  RESPOND_API_PATH,
} from '../../contracts/push-constants';
import { type InteractionResolution, type InteractionResponse, type RespondAck } from '../../contracts';
import { isRecord } from '../../contracts/unknown';
import { maskSecretAnswers } from '../../state/secret-answers';
import { type OutboxEntry } from '../outbox-db';
import { fillReceipt, receiptMessages, type ReceiptMessages } from '../push/receipt-messages';
import { type WorkerDevice } from '../worker-device';

/*
 * Answering from a notification's buttons (R14.8–R14.11), in the service worker: the buttons a notification
 * shows, and what pressing one does. The answer goes where the app's answers go: into the outbox first, then to
 * the host with this device's credential, settled by the host's ack as the app settles it (./answer-queue.ts).
 */

export interface NotificationAnswerData {
  title: string;
  outcome: 'allowed' | 'denied' | 'answered';
  response: InteractionResponse;
  /** The app's own word for it, shown in the device's language. */
  appLabel?: 'allow' | 'deny';
}

/** The part of `notification.data` the buttons use. */
export interface AnswerableData {
  kind: 'interaction' | 'summary' | 'test';
  url: string;
  requestId?: string;
  agent?: string;
  answers?: NotificationAnswerData[];
  fit?: 'first' | 'all';
  /** A receipt (R14.11): `final` closes itself after a while; `queued` waits for the close like any other. */
  receipt?: 'final' | 'queued';
}

/** The Background Sync tag of answers a press left queued: its `sync` event sends them. */
export const ANSWER_SYNC_TAG = 'askaway-answers';

/** How long a final receipt stays before it closes itself: long enough to read at a glance. */
export const RECEIPT_VISIBLE_MS = 4_000;

/**
 * The answers shown as buttons: as many as the device shows (an approval's first ways to answer; the rest stay
 * on the card, which a tap opens), or, for a question's options, all of them or none.
 */
export function shownAnswers(data: AnswerableData, maxActions: number): NotificationAnswerData[] {
  const answers = data.answers ?? [];
  if (data.kind !== 'interaction' || data.requestId === undefined || maxActions <= 0) return [];
  if (data.fit === 'all' && answers.length > maxActions) return [];
  return answers.slice(0, maxActions);
}

/** The Notification API's `actions`: each button's action is its answer's index. */
export function notificationActions(
  data: AnswerableData,
  maxActions: number,
  language?: string,
): { action: string; title: string }[] {
  const m = receiptMessages(language);
  return shownAnswers(data, maxActions).map((answer, index) => ({
    action: String(index),
    title: answer.appLabel ? m[answer.appLabel] : answer.title,
  }));
}

export interface AnswerOutbox {
  load(): Promise<OutboxEntry[]>;
  put(entry: OutboxEntry): Promise<unknown>;
  delete(clientResponseId: string): Promise<unknown>;
}

export interface AnswerDeps {
  origin: string;
  language?: string;
  fetch(url: string, init: RequestInit): Promise<Response>;
  readDevice(): Promise<WorkerDevice | undefined>;
  outbox: AnswerOutbox;
  newId(): string;
  now(): number;
  /** Waits `ms` (a final receipt's time on screen). */
  sleep(ms: number): Promise<void>;
  /**
   * Asks the browser for a `sync` event (ANSWER_SYNC_TAG) once it is online again (Background Sync); where it has
   * none, this does nothing and the worker's next push or the app's next run sends the answer.
   */
  requestSync(): Promise<void>;
}

export interface PressedNotification {
  readonly title: string;
  readonly tag: string;
  readonly data: unknown;
  readonly timestamp?: number;
}

type NotificationShower = Pick<ServiceWorkerRegistration, 'showNotification' | 'getNotifications'>;

/** What pressing a notification's answer button sends, or undefined when the press answers nothing. */
export function pressedAnswer(data: AnswerableData | undefined, action: string): NotificationAnswerData | undefined {
  if (!data || !/^\d$/.test(action)) return undefined;
  return shownAnswers(data, NOTIFICATION_ANSWERS_MAX)[Number(action)];
}

/**
 * Sends the answer of the pressed button and replaces the notification, silently, with what happened. Returns
 * false when there is nothing to send (no paired device here): the caller opens the card instead.
 */
export async function answerFromNotification(
  notification: PressedNotification,
  data: AnswerableData,
  answer: NotificationAnswerData,
  registration: NotificationShower,
  deps: AnswerDeps,
): Promise<boolean> {
  const device = await deps.readDevice().catch(() => undefined);
  const requestId = data.requestId;
  if (!device || requestId === undefined) return false;
  const entry: OutboxEntry = {
    requestId,
    clientResponseId: deps.newId(),
    response: answer.response,
    createdAt: new Date(deps.now()).toISOString(),
    state: 'queued',
  };
  // Durable first (R9.8): whatever happens to the request, the answer is in the outbox the app sends from.
  await deps.outbox.put(entry).catch(() => undefined);
  const text = await sendEntry(entry, device, deps, answer, data.agent);
  if (!text.final) await deps.requestSync().catch(() => undefined);
  await showReceipt(registration, notification, data, text, deps);
  return true;
}

/**
 * Sends what notifications left queued (the app sends them too when it runs: the same id is idempotent).
 * Returns how many are still queued (unsent: offline, or a refusal that may clear up).
 */
export async function flushQueuedAnswers(registration: NotificationShower, deps: AnswerDeps): Promise<number> {
  const device = await deps.readDevice().catch(() => undefined);
  if (!device) return 0;
  const queued = (await deps.outbox.load().catch(() => [] as OutboxEntry[])).filter(
    (entry) => entry.state === 'queued',
  );
  let left = 0;
  for (const entry of queued) {
    const [shown] = await registration.getNotifications({ tag: entry.requestId });
    const data = shown ? readAnswerable(shown.data) : undefined;
    const text = await sendEntry(entry, device, deps, undefined, data?.agent);
    if (!text.final) left += 1;
    if (shown && data?.receipt === 'queued' && text.final) await showReceipt(registration, shown, data, text, deps);
  }
  return left;
}

interface ReceiptText {
  body: string;
  final: boolean;
}

async function sendEntry(
  entry: OutboxEntry,
  device: WorkerDevice,
  deps: AnswerDeps,
  answer: NotificationAnswerData | undefined,
  agent: string | undefined,
): Promise<ReceiptText> {
  const m = receiptMessages(deps.language);
  let reply: { ack: RespondAck; answeredInTerminal?: boolean } | undefined;
  try {
    const response = await deps.fetch(`${device.hostUrl || deps.origin}${RESPOND_API_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${device.credential}` },
      body: JSON.stringify({
        requestId: entry.requestId,
        clientResponseId: entry.clientResponseId,
        response: entry.response,
      }),
    });
    reply = readReply(await response.json());
  } catch {
    reply = undefined;
  }
  const queued = { body: m.queued, final: false };
  // No answer, or one that may clear up on its own: it stays queued, as the app keeps it.
  if (!reply) return queued;
  const { ack } = reply;
  if (!ack.ok) {
    if (TRANSIENT.has(ack.error.code)) return queued;
    await deps.outbox.put(settled(entry, { state: 'failed', error: ack.error.message })).catch(() => undefined);
    if (ack.error.code === 'withdrawn')
      return { body: reply.answeredInTerminal ? m.terminal : m.withdrawn, final: true };
    if (ack.error.code === 'unauthorized' || ack.error.code === 'device-revoked')
      return { body: m.removed, final: true };
    return { body: fillReceipt(m.refused, { message: ack.error.message }), final: true };
  }
  if (ack.status === 'accepted' || ack.resolution.clientResponseId === entry.clientResponseId) {
    await deps.outbox.delete(entry.clientResponseId).catch(() => undefined);
    const outcome = answer ? outcomeText(answer, m) : outcomeOf(entry.response, m);
    return { body: fillReceipt(m.received, { outcome, agent: agent ?? m.agent }), final: true };
  }
  // Kept, as the app keeps an answer that lost, so what was chosen stays readable on the card.
  await deps.outbox.put(settled(entry, { state: 'lost', resolution: ack.resolution })).catch(() => undefined);
  return { body: fillReceipt(m.lost, { by: byWhom(ack.resolution, m) }), final: true };
}

/**
 * An entry as it stays once settled (lost, refused): its secret answers masked and their notes dropped, as the app
 * keeps them (R12.14), since the host has the answer or never will. Only a queued entry holds them whole.
 */
function settled(entry: OutboxEntry, outcome: Pick<OutboxEntry, 'state' | 'error' | 'resolution'>): OutboxEntry {
  const response = maskSecretAnswers(entry.response, new Set(entry.secretQuestions ?? []));
  return { ...entry, ...outcome, response };
}

const TRANSIENT = new Set(['unknown-interaction', 'rate-limited', 'internal', 'storage-unavailable']);

function outcomeText(answer: NotificationAnswerData, m: ReceiptMessages): string {
  if (answer.outcome === 'answered') return fillReceipt(m.answered, { label: answer.title });
  // The receipt's words are the app's own: "Allowed", whatever the agent's button said.
  return answer.outcome === 'allowed' ? m.allowed : m.denied;
}

function outcomeOf(response: InteractionResponse, m: ReceiptMessages): string {
  if (response.action !== 'accept') return m.denied;
  const answers = response.content?.answers;
  const label = answers ? Object.values(answers)[0] : undefined;
  return label === undefined ? m.allowed : fillReceipt(m.answered, { label });
}

function byWhom(resolution: InteractionResolution, m: ReceiptMessages): string {
  if (resolution.resolvedBy === 'auto') return m.byAuto;
  if (resolution.resolvedBy === 'runtime') return m.byAgent;
  return resolution.device?.label ? fillReceipt(m.byDevice, { name: resolution.device.label }) : m.byAnotherDevice;
}

/** The same tag, no buttons, no sound: what happened, in place of the question. */
async function showReceipt(
  registration: NotificationShower,
  notification: PressedNotification,
  data: AnswerableData,
  text: ReceiptText,
  deps: AnswerDeps,
): Promise<void> {
  const receipt: AnswerableData = {
    kind: data.kind,
    url: data.url,
    ...(data.requestId === undefined ? {} : { requestId: data.requestId }),
    ...(data.agent === undefined ? {} : { agent: data.agent }),
    receipt: text.final ? 'final' : 'queued',
  };
  await registration.showNotification(notification.title, {
    tag: notification.tag,
    body: text.body,
    silent: true,
    icon: '/icons/icon-192.png',
    data: receipt,
    ...(notification.timestamp === undefined ? {} : { timestamp: notification.timestamp }),
  } as NotificationOptions);
  if (!text.final) return;
  // Resolved: the host's close push leaves a final receipt alone; it goes by itself once read.
  await deps.sleep(RECEIPT_VISIBLE_MS);
  for (const shown of await registration.getNotifications({ tag: notification.tag })) {
    if (readAnswerable(shown.data)?.receipt === 'final') shown.close();
  }
}

/** `{ack, answeredInTerminal}` as the host sends it (DeviceRespondReplySchema), checked by hand: no zod here. */
function readReply(value: unknown): { ack: RespondAck; answeredInTerminal?: boolean } | undefined {
  if (!isRecord(value) || !isRecord(value.ack)) return undefined;
  const ack = value.ack;
  if (ack.ok === false && isRecord(ack.error) && typeof ack.error.code === 'string') {
    const message = typeof ack.error.message === 'string' ? ack.error.message : '';
    return {
      ack: { ok: false, error: { code: ack.error.code as never, message } },
      answeredInTerminal: value.answeredInTerminal === true,
    };
  }
  if (ack.ok === true && (ack.status === 'accepted' || ack.status === 'already-resolved') && isRecord(ack.resolution))
    return { ack: ack as unknown as RespondAck };
  return undefined;
}

const isString = (value: unknown, max: number): value is string => typeof value === 'string' && value.length <= max;

/** A notification's data as this worker wrote it (or the host sent it), checked by hand. */
export function readAnswerable(value: unknown): AnswerableData | undefined {
  if (!isRecord(value)) return undefined;
  const { kind, url, requestId, agent, answers, fit, receipt } = value;
  if (kind !== 'interaction' && kind !== 'summary' && kind !== 'test') return undefined;
  if (!isString(url, 2_000) || (requestId !== undefined && !isString(requestId, PUSH_TAG_MAX))) return undefined;
  const data: AnswerableData = { kind, url, ...(requestId === undefined ? {} : { requestId }) };
  if (isString(agent, PUSH_TITLE_MAX)) data.agent = agent;
  if (receipt === 'final' || receipt === 'queued') data.receipt = receipt;
  const read = Array.isArray(answers) ? answers.slice(0, NOTIFICATION_ANSWERS_MAX).map(readAnswer) : [];
  if (read.length > 0 && read.every((answer) => answer !== undefined)) {
    data.answers = read as NotificationAnswerData[];
    data.fit = fit === 'all' ? 'all' : 'first';
  }
  return data;
}

function readAnswer(value: unknown): NotificationAnswerData | undefined {
  if (!isRecord(value) || !isString(value.title, PUSH_TITLE_MAX) || value.title === '') return undefined;
  const { outcome, response } = value;
  if (outcome !== 'allowed' && outcome !== 'denied' && outcome !== 'answered') return undefined;
  // The host checks the response itself (the same checks as the card's): only its kind is read here.
  if (!isRecord(response) || (response.action !== 'accept' && response.action !== 'decline')) return undefined;
  const appLabel = value.appLabel === 'allow' || value.appLabel === 'deny' ? value.appLabel : undefined;
  return {
    title: value.title,
    outcome,
    response: response as unknown as InteractionResponse,
    ...(appLabel ? { appLabel } : {}),
  };
}

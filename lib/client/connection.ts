import { io, type Socket } from 'socket.io-client';
import {
  ConnectErrorDataSchema,
  EventBatchSchema,
  MAX_MESSAGE_BYTES,
  PROTOCOL_VERSION,
  PreferencesAckSchema,
  REMOTE_NAMESPACE,
  RespondAckSchema,
  RespondCommandSchema,
  SnapshotAckSchema,
  SnapshotSchema,
  type InteractionResponse,
  type PreferencesPatch,
  type RemoteAuth,
  type RemoteClientToServerEvents,
  type RemoteServerToClientEvents,
  type RespondAck,
  type Snapshot,
} from '../contracts';
import { deleteOutboxEntry, loadOutboxEntries, putOutboxEntry, type OutboxEntry } from './outbox-db';
import { type Pairing } from './pairing';
import { applyEvents, EMPTY_HOST_VIEW, fromSnapshot } from './reduce';
import { clearCachedHost, loadCachedHost, scheduleCacheSave } from './state-cache';
import { getState, setAnswer, setState, type ConnectionError, type LocalAnswer } from './store';
import { markConnected, markSnapshot } from './test-hook';
import { attachPushChannel } from './push/channel';

type RemoteSocket = Socket<RemoteServerToClientEvents, RemoteClientToServerEvents>;

const ACK_TIMEOUT_MS = 10_000;
/** A foregrounded tab whose socket looks alive must prove it within this time, or it is rebuilt. */
const LIVENESS_TIMEOUT_MS = 3_000;
/** Host errors that may clear up on their own: the answer stays queued and is retried. */
const TRANSIENT = new Set(['unknown-interaction', 'rate-limited', 'internal']);
/** A queued answer is retried on a live socket after this delay, doubling up to the max. */
const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 30_000;

let socket: RemoteSocket | null = null;
let current: Pairing | null = null;
const inFlight = new Set<string>();
let windowHooked = false;
let retryTimer: ReturnType<typeof setTimeout> | null = null;
let retryDelayMs = RETRY_MIN_MS;

function newId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function setStatus(status: ReturnType<typeof getState>['status'], error: ConnectionError | null = null): void {
  setState((s) => (s.status === status && s.error === error ? s : { ...s, status, error }));
}

/** Connects (or reconnects with new credentials). Idempotent for the same pairing. */
export function startConnection(pairing: Pairing | null): void {
  hookWindow();
  void restoreOutbox();
  if (pairing && current && socket && samePairing(pairing, current)) return;
  stopConnection();
  current = pairing;
  if (!pairing) {
    setStatus('unpaired');
    return;
  }
  setState((s) => ({
    ...s,
    host: s.hostUrl === pairing.hostUrl ? s.host : EMPTY_HOST_VIEW,
    hostUrl: pairing.hostUrl,
    status: 'connecting',
    error: null,
  }));
  void loadCachedHost(pairing.hostUrl).then((cached) => {
    // Only until the live snapshot: never overwrite fresher state.
    if (cached) setState((s) => (s.host.hasSnapshot || s.host.cached ? s : { ...s, host: cached }));
  });
  const auth: RemoteAuth = {
    token: pairing.token,
    protocolVersion: PROTOCOL_VERSION,
    device: { id: pairing.deviceId, label: pairing.deviceLabel },
  };
  const url = `${pairing.hostUrl}${REMOTE_NAMESPACE}`;
  const next: RemoteSocket = io(url, {
    auth,
    transports: ['websocket', 'polling'],
    reconnectionDelay: 400,
    reconnectionDelayMax: 4_000,
    randomizationFactor: 0.3,
    timeout: 8_000,
  });
  socket = next;
  attachPushChannel(next);
  next.on('connect', () => {
    markConnected();
    setStatus('connected');
    flushOutbox();
  });
  next.on('snapshot', (raw) => onSnapshot(raw));
  next.on('events', (raw) => {
    const parsed = EventBatchSchema.safeParse(raw);
    if (!parsed.success) return;
    setState((s) => {
      const host = applyEvents(s.host, parsed.data.events);
      return host === s.host ? s : { ...s, host };
    });
    scheduleCacheSave(pairing.hostUrl, getState().host);
  });
  next.on('connect_error', (error: Error & { data?: unknown }) => {
    const data = ConnectErrorDataSchema.safeParse(error.data);
    if (data.success && (data.data.code === 'unauthorized' || data.data.code === 'protocol-mismatch')) {
      // The host refused us for good: retrying would only hammer it.
      setStatus('refused', { kind: data.data.code, message: data.data.message });
      next.disconnect();
      return;
    }
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    setStatus(offline ? 'offline' : 'reconnecting', {
      kind: data.success ? 'other' : 'unreachable',
      message: data.success ? data.data.message : error.message,
    });
  });
  next.on('disconnect', () => {
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    if (getState().status !== 'refused') setStatus(offline ? 'offline' : 'reconnecting');
  });
}

function samePairing(a: Pairing, b: Pairing): boolean {
  return a.hostUrl === b.hostUrl && a.token === b.token && a.deviceId === b.deviceId && a.deviceLabel === b.deviceLabel;
}

/** Forget: drop the connection and what this device cached from the host. */
export function forgetHost(): Promise<unknown> {
  stopConnection();
  setState((s) => ({ ...s, host: EMPTY_HOST_VIEW, status: 'unpaired', error: null }));
  return clearCachedHost();
}

export function stopConnection(): void {
  socket?.removeAllListeners();
  socket?.disconnect();
  socket = null;
  current = null;
  inFlight.clear();
  clearRetry();
}

function onSnapshot(raw: unknown): void {
  const parsed = SnapshotSchema.safeParse(raw);
  if (!parsed.success) {
    setStatus('connected', { kind: 'other', message: 'The host sent a snapshot this app cannot read.' });
    return;
  }
  applySnapshot(parsed.data);
}

function applySnapshot(snapshot: Snapshot): void {
  if (snapshot.protocolVersion !== PROTOCOL_VERSION) {
    setStatus('refused', { kind: 'protocol-mismatch', message: `host speaks protocol ${snapshot.protocolVersion}` });
    socket?.disconnect();
    return;
  }
  setState((s) => ({ ...s, host: fromSnapshot(snapshot, Date.now()) }));
  markSnapshot();
  scheduleCacheSave(current?.hostUrl ?? '', getState().host);
  flushOutbox();
}

/** Foreground, network back, or restored from bfcache: reconnect now rather than after backoff. */
function wake(): void {
  const live = socket;
  if (!live || getState().status === 'refused') return;
  if (!live.connected) {
    live.connect();
    return;
  }
  // Mobile browsers freeze background sockets without closing them; prove this one is alive.
  live.timeout(LIVENESS_TIMEOUT_MS).emit('snapshot:get', (error: Error | null, raw: unknown) => {
    if (error) {
      live.disconnect().connect();
      return;
    }
    const ack = SnapshotAckSchema.safeParse(raw);
    if (ack.success && ack.data.ok) applySnapshot(ack.data.snapshot);
  });
}

function hookWindow(): void {
  if (windowHooked || typeof window === 'undefined') return;
  windowHooked = true;
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') wake();
  });
  window.addEventListener('online', wake);
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) wake();
  });
  window.addEventListener('offline', () => {
    // The socket may take a ping timeout to notice; say so now and rebuild on 'online'.
    socket?.disconnect();
    if (socket) setStatus('offline');
  });
}

/* ------------------------------------------------------------------ outbox (R9.8) */

let outboxRestored: Promise<void> | null = null;

function restoreOutbox(): Promise<void> {
  outboxRestored ??= loadOutboxEntries()
    .catch(() => [] as OutboxEntry[])
    .then((entries) => {
      setState((s) => {
        const answers = new Map(s.answers);
        for (const entry of entries) {
          if (!answers.has(entry.requestId)) answers.set(entry.requestId, { ...entry, phase: entry.state });
        }
        return { ...s, answers, outboxLoaded: true };
      });
      flushOutbox();
    });
  return outboxRestored;
}

function toEntry(answer: LocalAnswer, state: OutboxEntry['state']): OutboxEntry {
  const { phase: _phase, ...rest } = answer;
  return { ...rest, state };
}

/** Stores the answer durably first, then sends it if connected. Never throws away what the user wrote. */
export async function submitResponse(requestId: string, response: InteractionResponse): Promise<void> {
  const previous = getState().answers.get(requestId);
  const answer: LocalAnswer = {
    requestId,
    clientResponseId: newId(),
    response,
    createdAt: new Date().toISOString(),
    phase: 'queued',
  };
  // An answer the host would refuse is refused here, at once and even offline, so the form
  // comes back to be corrected instead of the answer waiting in the queue for a refusal.
  const problem = unsendableReason(answer);
  if (problem) {
    setAnswer({ ...answer, phase: 'failed', error: problem });
    return;
  }
  setAnswer(answer);
  try {
    // A refused answer is replaced by this one: a reload must restore the new one, not the refusal.
    if (previous?.phase === 'failed') await deleteOutboxEntry(previous.clientResponseId).catch(() => undefined);
    await putOutboxEntry(toEntry(answer, 'queued'));
  } catch {
    // No IndexedDB (private mode): the answer still lives in memory and is sent when possible.
  }
  send(answer);
}

/** Why the host could never accept this command (shape, limits, message size), or null. */
function unsendableReason(answer: LocalAnswer): string | null {
  const command = { requestId: answer.requestId, clientResponseId: answer.clientResponseId, response: answer.response };
  const parsed = RespondCommandSchema.safeParse(command);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return issue ? `${issue.path.join('.')}: ${issue.message}` : 'The answer is not valid';
  }
  // The host closes a connection whose message exceeds its limit; leave room for the envelope.
  const bytes = new TextEncoder().encode(JSON.stringify(command)).length;
  if (bytes > MAX_MESSAGE_BYTES - 1_024) return 'The answer is too long to send; shorten the notes or the typed text';
  return null;
}

function flushOutbox(): void {
  for (const answer of getState().answers.values()) if (answer.phase === 'queued') send(answer);
}

function send(answer: LocalAnswer): void {
  const live = socket;
  if (!live?.connected || inFlight.has(answer.clientResponseId)) return;
  inFlight.add(answer.clientResponseId);
  setAnswer({ ...answer, phase: 'sending' });
  const command = { requestId: answer.requestId, clientResponseId: answer.clientResponseId, response: answer.response };
  live.timeout(ACK_TIMEOUT_MS).emit('respond', command, (error: Error | null, raw: unknown) => {
    inFlight.delete(answer.clientResponseId);
    if (error) {
      // No ack: keep it queued; the same clientResponseId makes the retry idempotent.
      requeue(answer);
      return;
    }
    const ack = RespondAckSchema.safeParse(raw);
    void settle(answer, ack.success ? ack.data : null);
  });
}

/**
 * Back to the queue. A reconnect flushes the queue, but a refusal on a live socket
 * (rate-limited, internal, no ack in time) would wait for one forever: retry later.
 */
function requeue(answer: LocalAnswer): void {
  setAnswer({ ...answer, phase: 'queued' });
  if (retryTimer !== null || !socket?.connected) return;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    flushOutbox();
  }, retryDelayMs);
  retryDelayMs = Math.min(RETRY_MAX_MS, retryDelayMs * 2);
}

function clearRetry(): void {
  if (retryTimer !== null) clearTimeout(retryTimer);
  retryTimer = null;
  retryDelayMs = RETRY_MIN_MS;
}

async function settle(answer: LocalAnswer, ack: RespondAck | null): Promise<void> {
  if (!ack) {
    requeue(answer);
    return;
  }
  if (!ack.ok) {
    if (TRANSIENT.has(ack.error.code)) {
      requeue(answer);
      return;
    }
    const failed: LocalAnswer = { ...answer, phase: 'failed', error: ack.error.message };
    setAnswer(failed);
    await putOutboxEntry(toEntry(failed, 'failed')).catch(() => undefined);
    return;
  }
  retryDelayMs = RETRY_MIN_MS;
  const won = ack.status === 'accepted' || ack.resolution.clientResponseId === answer.clientResponseId;
  if (won) {
    setAnswer({ ...answer, phase: 'accepted', resolution: ack.resolution });
    await deleteOutboxEntry(answer.clientResponseId).catch(() => undefined);
    return;
  }
  const lost: LocalAnswer = { ...answer, phase: 'lost', resolution: ack.resolution };
  setAnswer(lost);
  // Kept (not deleted) so what the user wrote stays readable after a reload.
  await putOutboxEntry(toEntry(lost, 'lost')).catch(() => undefined);
}

/** Changes a host preference; every remote hears about it through a `preferences.updated` event. */
export function updatePreferences(patch: PreferencesPatch): Promise<boolean> {
  const live = socket;
  if (!live?.connected) return Promise.resolve(false);
  return new Promise((resolve) => {
    live.timeout(ACK_TIMEOUT_MS).emit('preferences:update', patch, (error: Error | null, raw: unknown) => {
      const ack = PreferencesAckSchema.safeParse(raw);
      if (error || !ack.success || !ack.data.ok) {
        resolve(false);
        return;
      }
      const preferences = ack.data.preferences;
      setState((s) => ({ ...s, host: { ...s.host, preferences } }));
      resolve(true);
    });
  });
}

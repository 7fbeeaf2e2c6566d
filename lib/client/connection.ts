import {
  ConnectErrorDataSchema,
  EventBatchSchema,
  MachineListSchema,
  PendingMoreAckSchema,
  PreferencesAckSchema,
  REMOTE_NAMESPACE,
  REMOTE_PROTOCOL_VERSION,
  SnapshotAckSchema,
  SnapshotSchema,
  type InteractionResponse,
  type PreferencesPatch,
  type RemoteAuth,
  type Snapshot,
} from '../contracts';
import { ANSWER_ACK_TIMEOUT_MS, createAnswerQueue, type Outbox } from './answer-queue';
import { systemClock, type Clock } from './clock';
import { type HostSocket, type OpenSocket } from './host-socket';
import { type Pairing } from './pairing';
import { randomId } from './random-id';
import { describeIssues, formatProtocolError, type ProtocolError } from './protocol-error';
import { applyEvents, EMPTY_HOST_VIEW, fromSnapshot, withPendingPage, type HostView } from './reduce';
import { type ConnectionError, type ConnectionStatus, type RemoteStore } from './store';

/** A foregrounded tab whose socket looks alive must prove it within this time, or it is rebuilt. */
export const LIVENESS_TIMEOUT_MS = 3_000;

/** The last host state this device saw, so the app opens offline with it (IndexedDB in the app). */
export interface HostCache {
  load(hostUrl: string): Promise<HostView | null>;
  /** May write later: a burst of events costs one write. */
  save(hostUrl: string, host: HostView): void;
  clear(): Promise<unknown>;
}

export interface ConnectionOptions {
  store: RemoteStore;
  openSocket: OpenSocket;
  outbox: Outbox;
  clock?: Clock;
  hostCache?: HostCache;
  /** Idempotency keys for answers. */
  newId?: () => string;
  /** True when the browser knows it has no network (`navigator.onLine === false`). */
  isOffline?: () => boolean;
  /** A host message broke its contract. It is also logged, always. */
  onProtocolError?: (error: ProtocolError) => void;
  log?: (line: string) => void;
  onConnect?: () => void;
  /** The state caught up with the host: from a snapshot, or from the events replayed since lastSeq. */
  onSynced?: (how: 'snapshot' | 'resume') => void;
  /** The host revoked this device (R16.5): the credential of the device with this id is useless from now on. */
  onRevoked?: (deviceId: string) => void;
  /**
   * This device paired again (R16.9): a tab of this app exchanged a new code, and the host revoked the
   * credential in use here for the new device `byDeviceId` in the same commit. That tab stores the new
   * credential when its response arrives; this connection stops and waits to be started with it.
   */
  onReplaced?: (deviceId: string, byDeviceId: string) => void;
}

/** The remote's one connection to its host: state in, answers and preference changes out. */
export interface Connection {
  /** Connects (or reconnects with new credentials). Idempotent for the same pairing; null means unpaired. */
  start(pairing: Pairing | null): void;
  stop(): void;
  /** Forget: drop the connection and what this device cached from the host. */
  forget(): Promise<unknown>;
  submitResponse(requestId: string, response: InteractionResponse): Promise<void>;
  /** Changes a host preference; every remote hears about it through a `preferences.updated` event. */
  updatePreferences(patch: PreferencesPatch): Promise<boolean>;
  /** Loads the next page of pending interactions beyond what the snapshot carried (R12.7); false if it could not. */
  loadMorePending(): Promise<boolean>;
  /** Foreground, network back, or restored from bfcache: reconnect now rather than after backoff. */
  wake(): void;
  /** The browser lost the network: say so now rather than after a ping timeout. */
  wentOffline(): void;
}

const NO_CACHE: HostCache = {
  load: () => Promise.resolve(null),
  save: () => undefined,
  clear: () => Promise.resolve(),
};

export function createConnection(options: ConnectionOptions): Connection {
  const { store, openSocket } = options;
  const clock = options.clock ?? systemClock;
  const hostCache = options.hostCache ?? NO_CACHE;
  const isOffline = options.isOffline ?? (() => false);
  const log = options.log ?? ((line: string) => console.warn(line));
  let socket: HostSocket | null = null;
  let current: Pairing | null = null;
  /** Connected, and neither a snapshot nor the first replayed batch has arrived yet. */
  let awaitingSync = false;
  /** A batch of events could not be read: lastSeq no longer means "everything up to here". */
  let gap = false;

  function report(error: ProtocolError): void {
    log(formatProtocolError(error));
    options.onProtocolError?.(error);
  }

  const answers = createAnswerQueue({
    store,
    outbox: options.outbox,
    clock,
    newId: options.newId ?? randomId,
    socket: () => socket,
    report,
  });

  function setStatus(status: ConnectionStatus, error: ConnectionError | null = null): void {
    store.setState((s) => (s.status === status && s.error === error ? s : { ...s, status, error }));
  }

  function start(pairing: Pairing | null): void {
    void answers.restore();
    if (pairing && current && socket && samePairing(pairing, current)) return;
    stop();
    current = pairing;
    if (!pairing) {
      setStatus('unpaired');
      return;
    }
    store.setState((s) => ({
      ...s,
      host: s.hostUrl === pairing.hostUrl ? s.host : EMPTY_HOST_VIEW,
      hostUrl: pairing.hostUrl,
      status: 'connecting',
      error: null,
    }));
    void hostCache.load(pairing.hostUrl).then((cached) => {
      // Only until the live snapshot: never overwrite fresher state.
      if (cached) store.setState((s) => (s.host.hasSnapshot || s.host.cached ? s : { ...s, host: cached }));
    });
    // Read on every (re)connect: a remote that holds live state asks only for what it missed (R9.2),
    // in the log it has seen (R10.6).
    const auth = (): RemoteAuth => {
      const { host } = store.getState();
      return {
        credential: pairing.credential,
        protocolVersion: REMOTE_PROTOCOL_VERSION,
        ...(host.hasSnapshot && !gap && host.logId !== null
          ? { resume: { logId: host.logId, lastSeq: host.lastSeq } }
          : {}),
      };
    };
    const next = openSocket(`${pairing.hostUrl}${REMOTE_NAMESPACE}`, auth, pairing);
    socket = next;
    next.on('connect', () => {
      awaitingSync = true;
      options.onConnect?.();
      setStatus('connected');
      answers.flush();
    });
    next.on('snapshot', onSnapshot);
    next.on('events', onEvents);
    next.on('machines', onMachines);
    next.on('connect_error', (error: Error & { data?: unknown }) => {
      const data = error.data === undefined ? null : ConnectErrorDataSchema.safeParse(error.data);
      if (data && !data.success)
        report({ event: 'connect_error', reply: false, rule: describeIssues(data.error.issues) });
      const refusal = data?.success ? data.data : null;
      if (refusal?.code === 'device-revoked') {
        revoked(refusal.message);
        return;
      }
      if (refusal && (refusal.code === 'unauthorized' || refusal.code === 'protocol-mismatch')) {
        // The host refused us for good: retrying would only hammer it.
        setStatus('refused', { kind: refusal.code, message: refusal.message });
        next.disconnect();
        return;
      }
      setStatus(isOffline() ? 'offline' : 'reconnecting', {
        kind: refusal ? 'other' : 'unreachable',
        message: refusal ? refusal.message : error.message,
      });
    });
    next.on('disconnect', (reason) => {
      if (store.getState().status === 'refused') return;
      setStatus(isOffline() ? 'offline' : 'reconnecting');
      // socket.io does not come back by itself after the host closed the connection: ask, and the
      // handshake says why (a revoked device hears `device-revoked`).
      if (reason === 'io server disconnect') next.connect();
    });
  }

  /** R16.5: this device was revoked. What it cached from the host goes; the screen says how to pair again. */
  function revoked(message: string): void {
    const deviceId = current?.deviceId;
    stop();
    store.setState((s) => ({
      ...s,
      host: EMPTY_HOST_VIEW,
      status: 'refused',
      error: { kind: 'device-revoked', message },
    }));
    void hostCache.clear();
    if (deviceId !== undefined) options.onRevoked?.(deviceId);
  }

  /** R16.9: the same device under a new credential. The inbox stays; the new pairing restarts the connection. */
  function replaced(byDeviceId: string): void {
    const deviceId = current?.deviceId;
    stop();
    setStatus('connecting');
    if (deviceId !== undefined) options.onReplaced?.(deviceId, byDeviceId);
  }

  function stop(): void {
    socket?.removeAllListeners();
    socket?.disconnect();
    socket = null;
    current = null;
    awaitingSync = false;
    answers.reset();
  }

  function forget(): Promise<unknown> {
    stop();
    store.setState((s) => ({ ...s, host: EMPTY_HOST_VIEW, status: 'unpaired', error: null }));
    return hostCache.clear();
  }

  function onSnapshot(raw: unknown): void {
    const parsed = SnapshotSchema.safeParse(raw);
    if (!parsed.success) {
      report({ event: 'snapshot', reply: false, rule: describeIssues(parsed.error.issues) });
      setStatus('connected', { kind: 'other', message: 'The host sent a snapshot this app cannot read.' });
      return;
    }
    applySnapshot(parsed.data);
  }

  function onEvents(raw: unknown): void {
    const parsed = EventBatchSchema.safeParse(raw);
    if (!parsed.success) {
      report({ event: 'events', reply: false, rule: describeIssues(parsed.error.issues) });
      // A change is missing now: catch up from a fresh snapshot rather than show a wrong inbox.
      gap = true;
      if (socket) requestSnapshot(socket, ANSWER_ACK_TIMEOUT_MS);
      return;
    }
    const mine = current?.deviceId;
    const revocation = parsed.data.events.find((event) => event.type === 'device.revoked' && event.deviceId === mine);
    if (revocation?.type === 'device.revoked') {
      const by = revocation.byDeviceId;
      // Paired again: the device that revoked this one was paired in the same commit (R16.9).
      if (by && parsed.data.events.some((event) => event.type === 'device.paired' && event.device.id === by)) {
        replaced(by);
        return;
      }
      // The host closes this connection next; say so now rather than after the round trip (R16.5).
      revoked('This device was removed from the host.');
      return;
    }
    store.setState((s) => {
      const host = applyEvents(s.host, parsed.data.events, parsed.data.pendingTotal);
      return host === s.host ? s : { ...s, host };
    });
    if (awaitingSync) {
      awaitingSync = false;
      options.onSynced?.('resume');
    }
    saveHost();
  }

  /** The whole machine list with who is connected now (R17.5): it replaces the last one. */
  function onMachines(raw: unknown): void {
    const parsed = MachineListSchema.safeParse(raw);
    if (!parsed.success) {
      report({ event: 'machines', reply: false, rule: describeIssues(parsed.error.issues) });
      return;
    }
    const { machines } = parsed.data;
    store.setState((s) => ({ ...s, host: { ...s.host, machines } }));
  }

  function applySnapshot(snapshot: Snapshot): void {
    if (snapshot.protocolVersion !== REMOTE_PROTOCOL_VERSION) {
      setStatus('refused', { kind: 'protocol-mismatch', message: `host speaks protocol ${snapshot.protocolVersion}` });
      socket?.disconnect();
      return;
    }
    store.setState((s) => ({ ...s, host: fromSnapshot(snapshot, clock.now(), s.host) }));
    gap = false;
    awaitingSync = false;
    options.onSynced?.('snapshot');
    saveHost();
    answers.flush();
  }

  function saveHost(): void {
    if (current) hostCache.save(current.hostUrl, store.getState().host);
  }

  function requestSnapshot(live: HostSocket, timeoutMs: number, onNoAnswer?: () => void): void {
    live.timeout(timeoutMs).emit('snapshot:get', (error, raw) => {
      if (error) {
        onNoAnswer?.();
        return;
      }
      const ack = SnapshotAckSchema.safeParse(raw);
      if (!ack.success) report({ event: 'snapshot:get', reply: true, rule: describeIssues(ack.error.issues) });
      else if (ack.data.ok) applySnapshot(ack.data.snapshot);
    });
  }

  function wake(): void {
    const live = socket;
    if (!live || store.getState().status === 'refused') return;
    if (!live.connected) {
      live.connect();
      return;
    }
    // Mobile browsers freeze background sockets without closing them; prove this one is alive.
    requestSnapshot(live, LIVENESS_TIMEOUT_MS, () => {
      live.disconnect();
      live.connect();
    });
  }

  function wentOffline(): void {
    if (!socket) return;
    // The socket may take a ping timeout to notice; say so now and rebuild on wake.
    socket.disconnect();
    setStatus('offline');
  }

  function updatePreferences(patch: PreferencesPatch): Promise<boolean> {
    const live = socket;
    if (!live?.connected) return Promise.resolve(false);
    return new Promise((resolve) => {
      live.timeout(ANSWER_ACK_TIMEOUT_MS).emit('preferences:update', patch, (error, raw) => {
        if (error) {
          resolve(false);
          return;
        }
        const ack = PreferencesAckSchema.safeParse(raw);
        if (!ack.success) report({ event: 'preferences:update', reply: true, rule: describeIssues(ack.error.issues) });
        if (!ack.success || !ack.data.ok) {
          resolve(false);
          return;
        }
        const preferences = ack.data.preferences;
        store.setState((s) => ({ ...s, host: { ...s.host, preferences } }));
        resolve(true);
      });
    });
  }

  function loadMorePending(): Promise<boolean> {
    const live = socket;
    const after = store.getState().host.pendingCursor;
    if (!live?.connected || after === null) return Promise.resolve(false);
    return new Promise((resolve) => {
      live.timeout(ANSWER_ACK_TIMEOUT_MS).emit('pending:more', { after }, (error, raw) => {
        if (error) {
          resolve(false);
          return;
        }
        const ack = PendingMoreAckSchema.safeParse(raw);
        if (!ack.success) report({ event: 'pending:more', reply: true, rule: describeIssues(ack.error.issues) });
        if (!ack.success || !ack.data.ok) {
          resolve(false);
          return;
        }
        const page = ack.data;
        store.setState((s) => ({ ...s, host: withPendingPage(s.host, page) }));
        saveHost();
        resolve(true);
      });
    });
  }

  return {
    start,
    stop,
    forget,
    submitResponse: answers.submit,
    updatePreferences,
    loadMorePending,
    wake,
    wentOffline,
  };
}

function samePairing(a: Pairing, b: Pairing): boolean {
  return a.hostUrl === b.hostUrl && a.credential === b.credential && a.deviceId === b.deviceId;
}

import { randomUUID } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import {
  AnnounceAckSchema,
  AnnounceBatchAckSchema,
  AutoResolutionNoticeSchema,
  PROTOCOL_VERSION,
  ResolvedNoticeSchema,
  RUNTIME_NAMESPACE,
  SimpleAckSchema,
  type AutoResolutionNotice,
  type InteractionRequest,
  type InteractionResolution,
  type RuntimeAuth,
  type RuntimeClientToServerEvents,
  type RuntimeServerToClientEvents,
} from '../contracts';
import { classifyConnectError, HostConnectionError, unreachableError } from './errors';
import { DEFAULT_REANNOUNCE_BATCH_MS, ReannounceBatcher, type BatchEntry } from './reannounce-batcher';
import { ResolutionAcks } from './resolution-acks';

/** How long `ready()` waits for a first connection before calling the host unreachable. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
const WITHDRAW_TIMEOUT_MS = 5_000;
const SERVER_DISCONNECT_RETRY_MS = 500;
/** A batch not answered in time (an older host without `announce:batch`) falls back to full announces. */
const BATCH_ACK_TIMEOUT_MS = 5_000;
// socket.io-client drops packets emitted in the same tick as disconnect(); close() waits this long at most.
const CLOSE_FLUSH_TIMEOUT_MS = 1_000;

export interface ConnectToHostOptions {
  url: string;
  token: string;
  runtimeId?: string;
  /** Shown by the host for this runtime, e.g. "mcp: claude-code 2.1.90". */
  label?: string;
  /** Accept a self-signed certificate: only for a host reaching itself over loopback. */
  insecureTls?: boolean;
  /** How long re-announces are collected into one `announce:batch`; defaults to DEFAULT_REANNOUNCE_BATCH_MS. */
  reannounceBatchMs?: number;
}

/** A runtime's link to the host's '/runtime' namespace; it is the broker's InteractionTransport. */
export interface HostConnection {
  readonly url: string;
  readonly runtimeId: string;
  readonly connected: boolean;
  /** Set once the host refused this runtime for good (wrong token, protocol mismatch). */
  readonly failure: HostConnectionError | null;
  /** Announces the host has answered so far, full or batched by id (diagnostics, benchmarks). */
  readonly answered: number;
  /**
   * Registers (or re-registers, R8.1) a request and resolves with its resolution,
   * whether it comes in the announce ack or later as a 'resolved' notice.
   */
  announce(request: InteractionRequest, signal: AbortSignal): Promise<InteractionResolution>;
  /** Tells the host the tool call was aborted; pending announces of that request reject. */
  withdraw(requestId: string, reason?: string): Promise<void>;
  /** The host's onAutoResolutionUpdated callback (R6.2), including the state in announce acks. */
  onAutoResolution(listener: (notice: AutoResolutionNotice) => void): () => void;
  onConnectionChange(listener: (connected: boolean) => void): () => void;
  /** Resolves once connected; rejects with a HostConnectionError (unreachable, unauthorized, protocol-mismatch). */
  ready(timeoutMs?: number): Promise<void>;
  /** Rejects what still waits, lets withdrawals and acks in flight reach the host, then disconnects. */
  close(): Promise<void>;
}

interface Waiter {
  resolve(resolution: InteractionResolution): void;
  reject(error: unknown): void;
}

type RuntimeSocket = Socket<RuntimeServerToClientEvents, RuntimeClientToServerEvents>;

export function connectToHost(options: ConnectToHostOptions): HostConnection {
  const runtimeId = options.runtimeId ?? `runtime-${randomUUID()}`;
  const auth: RuntimeAuth = { token: options.token, protocolVersion: PROTOCOL_VERSION, runtimeId };
  if (options.label !== undefined) auth.label = options.label.slice(0, 200);

  const socket: RuntimeSocket = io(`${options.url}${RUNTIME_NAMESPACE}`, {
    auth,
    transports: ['websocket'],
    // Its own connection: a host dropping another client in this process must not drop this one.
    forceNew: true,
    reconnectionDelay: 250,
    reconnectionDelayMax: 2_000,
    ...(options.insecureTls ? { rejectUnauthorized: false } : {}),
  });

  const waiters = new Map<string, Set<Waiter>>();
  // The newest announce per pending requestId, re-sent on every (re)connect.
  const latest = new Map<string, InteractionRequest>();
  // Requests the host accepted as pending on the current connection: re-announced by id only.
  const accepted = new Set<string>();
  // Bumped on every connect, so an ack from an earlier connection cannot mark a request accepted.
  let generation = 0;
  let answered = 0;
  const autoListeners = new Set<(notice: AutoResolutionNotice) => void>();
  const connectionListeners = new Set<(connected: boolean) => void>();
  let fatal: HostConnectionError | null = null;
  let lastTransportError: string | undefined;
  let closed = false;
  const inflight = new Set<Promise<unknown>>();
  const track = <T>(promise: Promise<T>): Promise<T> => {
    inflight.add(promise);
    const forget = () => inflight.delete(promise);
    promise.then(forget, forget);
    return promise;
  };

  const removeWaiter = (requestId: string, waiter: Waiter) => {
    const set = waiters.get(requestId);
    if (!set) return;
    set.delete(waiter);
    if (set.size === 0) {
      waiters.delete(requestId);
      forget(requestId);
    }
  };

  const forget = (requestId: string) => {
    latest.delete(requestId);
    accepted.delete(requestId);
    batcher.delete(requestId);
  };

  const settle = (requestId: string, outcome: { resolution: InteractionResolution } | { error: unknown }) => {
    const set = waiters.get(requestId);
    waiters.delete(requestId);
    forget(requestId);
    for (const waiter of set ?? []) {
      if ('resolution' in outcome) waiter.resolve(outcome.resolution);
      else waiter.reject(outcome.error);
    }
  };

  const failAll = (error: HostConnectionError) => {
    for (const requestId of [...waiters.keys()]) settle(requestId, { error });
  };

  // R10.5: every resolution received is acknowledged, even one nobody waits for any more, until the host confirms.
  const acks = new ResolutionAcks(socket, (settled) => void track(settled));
  const acknowledge = (requestId: string) => acks.acknowledge(requestId);

  const applyResolved = (requestId: string, resolution: InteractionResolution) => {
    acknowledge(requestId);
    settle(requestId, { resolution });
  };
  const applyWithdrawn = (requestId: string) =>
    settle(requestId, { error: new HostConnectionError('withdrawn', `Interaction ${requestId} was withdrawn`) });

  const sendBatch = (entries: BatchEntry[]) => {
    const sentIn = generation;
    socket.timeout(BATCH_ACK_TIMEOUT_MS).emit('announce:batch', { entries }, (error: Error | null, raw: unknown) => {
      const parsed = error ? undefined : AnnounceBatchAckSchema.safeParse(raw);
      const ack = parsed?.success ? parsed.data : undefined;
      if (!ack?.ok) {
        // Rate limits and transient errors: the next re-announce retries. Anything else
        // (no answer, a host without batches): go back to full announces for these.
        const code = ack?.error.code;
        if (code !== 'rate-limited' && code !== 'internal' && sentIn === generation) {
          for (const entry of entries) accepted.delete(entry.requestId);
        }
        return;
      }
      answered += entries.length - ack.unknown.length;
      for (const { requestId, resolution } of ack.resolved)
        if (resolution.requestId === requestId) applyResolved(requestId, resolution);
      for (const requestId of ack.withdrawn) applyWithdrawn(requestId);
      if (sentIn !== generation) return;
      // The host lost this request (restarted on another data dir): it needs the full request again.
      for (const requestId of ack.unknown) {
        accepted.delete(requestId);
        const request = latest.get(requestId);
        if (request && socket.connected) emitAnnounce(request);
      }
    });
  };
  const batcher = new ReannounceBatcher(options.reannounceBatchMs ?? DEFAULT_REANNOUNCE_BATCH_MS, sendBatch);

  const emitAnnounce = (request: InteractionRequest) => {
    const sentIn = generation;
    socket.emit('announce', request, (raw: unknown) => {
      const parsed = AnnounceAckSchema.safeParse(raw);
      if (!parsed.success) return;
      const ack = parsed.data;
      if (!ack.ok) {
        // Rate limits and transient host errors are retried by the re-announce loop.
        if (ack.error.code === 'rate-limited' || ack.error.code === 'internal') return;
        const code = ack.error.code === 'withdrawn' ? 'withdrawn' : 'rejected';
        settle(request.requestId, { error: new HostConnectionError(code, ack.error.message) });
        return;
      }
      answered += 1;
      if (ack.status === 'pending') {
        if (sentIn === generation && latest.has(request.requestId)) accepted.add(request.requestId);
        for (const listener of autoListeners)
          listener({ requestId: request.requestId, autoResolution: ack.autoResolution });
      } else if (ack.status === 'resolved') {
        applyResolved(request.requestId, ack.resolution);
      } else {
        applyWithdrawn(request.requestId);
      }
    });
  };

  socket.on('resolved', (raw: unknown) => {
    const parsed = ResolvedNoticeSchema.safeParse(raw);
    if (!parsed.success) return;
    // Any protocolRequestId will do: the business requestId is what the waiter is keyed by (R8.2).
    applyResolved(parsed.data.requestId, parsed.data.resolution);
  });

  socket.on('auto-resolution', (raw: unknown) => {
    const parsed = AutoResolutionNoticeSchema.safeParse(raw);
    if (!parsed.success) return;
    for (const listener of autoListeners) listener(parsed.data);
  });

  socket.on('connect', () => {
    lastTransportError = undefined;
    generation += 1;
    accepted.clear();
    batcher.clear();
    for (const listener of connectionListeners) listener(true);
    // The host may have restarted and lost its routes: full announces first, then by id again.
    for (const request of latest.values()) emitAnnounce(request);
    acks.resendAll();
  });

  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  socket.on('disconnect', (reason) => {
    accepted.clear();
    batcher.clear();
    for (const listener of connectionListeners) listener(false);
    // socket.io gives up after a server-side disconnect (e.g. a host shutting down);
    // a runtime waiting on answers keeps trying, the host may come back (R8.1).
    if (reason === 'io server disconnect' && !closed && !fatal) {
      reconnectTimer = setTimeout(() => socket.connect(), SERVER_DISCONNECT_RETRY_MS);
    }
  });

  socket.on('connect_error', (error: Error & { data?: unknown }) => {
    const refusal = classifyConnectError(options.url, error);
    if (refusal instanceof HostConnectionError) {
      fatal = refusal;
      socket.disconnect();
      failAll(fatal);
    } else {
      lastTransportError = refusal;
    }
  });

  return {
    url: options.url,
    runtimeId,
    get connected() {
      return socket.connected;
    },
    get failure() {
      return fatal;
    },
    get answered() {
      return answered;
    },

    announce(request, signal) {
      if (closed) return Promise.reject(new HostConnectionError('closed', 'The host connection is closed'));
      if (fatal) return Promise.reject(fatal);
      if (signal.aborted) return Promise.reject(abortReason(signal));
      return new Promise<InteractionResolution>((resolve, reject) => {
        const onAbort = () => {
          removeWaiter(request.requestId, waiter);
          reject(abortReason(signal));
        };
        const waiter: Waiter = {
          resolve: (resolution) => {
            signal.removeEventListener('abort', onAbort);
            resolve(resolution);
          },
          reject: (error) => {
            signal.removeEventListener('abort', onAbort);
            reject(error);
          },
        };
        signal.addEventListener('abort', onAbort, { once: true });
        const set = waiters.get(request.requestId) ?? new Set<Waiter>();
        set.add(waiter);
        waiters.set(request.requestId, set);
        latest.set(request.requestId, request);
        // While disconnected nothing is sent; the connect handler announces the newest request.
        if (!socket.connected) return;
        if (accepted.has(request.requestId)) batcher.add(request.requestId, request.protocolRequestId);
        else emitAnnounce(request);
      });
    },

    async withdraw(requestId, reason) {
      settle(requestId, { error: new HostConnectionError('withdrawn', `Interaction ${requestId} was withdrawn`) });
      if (closed || fatal) return;
      const command = reason === undefined ? { requestId } : { requestId, reason: reason.slice(0, 2_000) };
      await track(
        new Promise<void>((resolve, reject) => {
          socket.timeout(WITHDRAW_TIMEOUT_MS).emit('withdraw', command, (error: Error | null, raw: unknown) => {
            if (error) {
              reject(unreachableError(options.url, 'withdraw was not acknowledged'));
              return;
            }
            const ack = SimpleAckSchema.safeParse(raw);
            if (ack.success && !ack.data.ok && ack.data.error.code !== 'unknown-interaction') {
              reject(new HostConnectionError('rejected', ack.data.error.message));
              return;
            }
            resolve();
          });
        }),
      );
    },

    onAutoResolution(listener) {
      autoListeners.add(listener);
      return () => autoListeners.delete(listener);
    },

    onConnectionChange(listener) {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },

    ready(timeoutMs = DEFAULT_CONNECT_TIMEOUT_MS) {
      if (socket.connected) return Promise.resolve();
      if (fatal) return Promise.reject(fatal);
      if (closed) return Promise.reject(new HostConnectionError('closed', 'The host connection is closed'));
      return new Promise<void>((resolve, reject) => {
        const cleanup = () => {
          clearTimeout(timer);
          socket.off('connect', onConnect);
          socket.off('connect_error', onError);
        };
        const onConnect = () => {
          cleanup();
          resolve();
        };
        const onError = () => {
          // The shared connect_error handler has already classified the error.
          if (!fatal) return;
          cleanup();
          reject(fatal);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(unreachableError(options.url, lastTransportError));
        }, timeoutMs);
        socket.on('connect', onConnect);
        socket.on('connect_error', onError);
      });
    },

    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(reconnectTimer);
      batcher.clear();
      acks.stop();
      failAll(new HostConnectionError('closed', 'The host connection is closed'));
      if (socket.connected && inflight.size > 0) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const bound = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, CLOSE_FLUSH_TIMEOUT_MS);
        });
        await Promise.race([Promise.allSettled([...inflight]), bound]);
        clearTimeout(timer);
      }
      socket.disconnect();
      autoListeners.clear();
      connectionListeners.clear();
    },
  };
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

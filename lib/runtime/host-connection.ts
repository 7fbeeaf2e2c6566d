import { randomUUID } from 'node:crypto';
import {
  AutoResolutionNoticeSchema,
  PROTOCOL_VERSION,
  ResolvedNoticeSchema,
  SimpleAckSchema,
  terminalSafe,
  type AutoResolutionNotice,
  type InteractionRequest,
  type InteractionResolution,
  type RuntimeAuth,
  type TerminalAnswer,
  type WithdrawCommand,
} from '../contracts';
import { Announcer, withdrawnError } from './announcer';
import { HostConnectionError, unreachableError } from './errors';
import { closedError, HostLink, type RuntimeSocket } from './host-link';
import { InFlight } from './in-flight';
import { HostMessageParser, type ProtocolErrorOptions } from './protocol-errors';
import { DEFAULT_REANNOUNCE_BATCH_MS } from './reannounce-batcher';
import { abortReason, RequestWaiters } from './request-waiters';
import { ResolutionAcks } from './resolution-acks';

export { type HostProtocolError } from './protocol-errors';

/** How long `ready()` waits for a first connection before calling the host unreachable. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
const WITHDRAW_TIMEOUT_MS = 5_000;
// socket.io-client drops packets emitted in the same tick as disconnect(); close() waits this long at most.
const CLOSE_FLUSH_TIMEOUT_MS = 1_000;

export interface ConnectToHostOptions extends ProtocolErrorOptions {
  url: string;
  token: string;
  runtimeId?: string;
  /** Shown by the host for this runtime, e.g. "mcp: claude-code 2.1.90". */
  label?: string;
  /** Accept a self-signed certificate: only for a host reaching itself over loopback. */
  insecureTls?: boolean;
  /** The joined hub's name, when the host is one (R17.6): unreachable and refused messages name it. */
  hubName?: string;
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
  /**
   * Tells the host the tool call was aborted; pending announces of that request reject. `terminalAnswer`:
   * the agent's own terminal answered first, with what it chose when known (R18.6).
   */
  /**
   * `afterAnswer`: the answer this request got was refused by the agent, whose terminal answered first
   * (R18.25); the host then withdraws it though it is resolved.
   */
  withdraw(
    requestId: string,
    reason?: string,
    terminalAnswer?: TerminalAnswer,
    options?: { afterAnswer?: boolean },
  ): Promise<void>;
  /** The host's onAutoResolutionUpdated callback (R6.2), including the state in announce acks. */
  onAutoResolution(listener: (notice: AutoResolutionNotice) => void): () => void;
  onConnectionChange(listener: (connected: boolean) => void): () => void;
  /** Resolves once connected; rejects with a HostConnectionError (unreachable, unauthorized, protocol-mismatch). */
  ready(timeoutMs?: number): Promise<void>;
  /** Rejects what still waits, lets withdrawals and acks in flight reach the host, then disconnects. */
  close(): Promise<void>;
}

/**
 * Wires the parts, each with one job: the link keeps the socket open, the
 * announcer (re-)announces requests, the waiters hold the tool calls, the acks
 * confirm every resolution received (R10.5), and the parser reports what the
 * host sends that breaks the protocol.
 */
export function connectToHost(options: ConnectToHostOptions): HostConnection {
  const runtimeId = options.runtimeId ?? `runtime-${randomUUID()}`;
  const auth: RuntimeAuth = { token: options.token, protocolVersion: PROTOCOL_VERSION, runtimeId };
  if (options.label !== undefined) auth.label = options.label.slice(0, 200);

  const parser = new HostMessageParser(options);
  const inFlight = new InFlight();
  const autoListeners = new Set<(notice: AutoResolutionNotice) => void>();
  const connectionListeners = new Set<(connected: boolean) => void>();
  let closed = false;

  const waiters = new RequestWaiters((requestId) => announcer.forget(requestId));
  // The link calls back only once its socket connects (or fails to), by when everything below exists.
  const link = new HostLink(
    { url: options.url, auth, insecureTls: options.insecureTls, hubName: options.hubName },
    {
      connected: () => {
        announcer.reset();
        for (const listener of connectionListeners) listener(true);
        // The host may have restarted and lost its routes: full announces first, then by id again.
        announcer.announceAll();
        acks.resendAll();
      },
      disconnected: () => {
        announcer.reset();
        for (const listener of connectionListeners) listener(false);
      },
      refused: (error) => waiters.failAll(error),
    },
  );
  const socket = link.socket;
  // R10.5: every resolution received is acknowledged, even one nobody waits for any more, until the host confirms.
  const acks = new ResolutionAcks(socket, (settled) => void inFlight.track(settled), parser);
  const resolved = (requestId: string, resolution: InteractionResolution) => {
    // The tool call gets its answer first; the ack goes out once this turn of the event loop is done.
    waiters.settle(requestId, { resolution });
    acks.acknowledge(requestId);
  };
  const notifyAutoResolution = (notice: AutoResolutionNotice) => {
    for (const listener of autoListeners) listener(notice);
  };
  // One line per request and reason, not one per re-announce.
  const deferred = new Map<string, string>();
  const announcer = new Announcer(
    socket,
    parser,
    {
      resolved,
      ended: (requestId, error) => waiters.settle(requestId, { error }),
      autoResolution: notifyAutoResolution,
      deferred: (requestId, reason) => {
        if (deferred.get(requestId) === reason) return;
        if (deferred.size > 1_000) deferred.clear();
        deferred.set(requestId, reason);
        (options.log ?? ((line: string) => process.stderr.write(`${line}\n`)))(
          `askaway: the host did not take question ${requestId} yet, it is sent again in a moment, less often while the host refuses it: ${terminalSafe(reason)}`,
        );
      },
    },
    options.reannounceBatchMs ?? DEFAULT_REANNOUNCE_BATCH_MS,
  );

  socket.on('resolved', (raw: unknown) => {
    const notice = parser.notice(ResolvedNoticeSchema, 'resolved', raw);
    // Any protocolRequestId will do: the business requestId is what the waiter is keyed by (R8.2).
    if (notice) resolved(notice.requestId, notice.resolution);
  });
  socket.on('auto-resolution', (raw: unknown) => {
    const notice = parser.notice(AutoResolutionNoticeSchema, 'auto-resolution', raw);
    if (notice) notifyAutoResolution(notice);
  });

  return {
    url: options.url,
    runtimeId,
    get connected() {
      return link.connected;
    },
    get failure() {
      return link.failure;
    },
    get answered() {
      return announcer.answered;
    },

    announce(request, signal) {
      if (closed) return Promise.reject(closedError());
      if (link.failure) return Promise.reject(link.failure);
      if (signal.aborted) return Promise.reject(abortReason(signal));
      // On its way first: nothing the host sends back is read before this call returns.
      announcer.announce(request);
      return waiters.wait(request.requestId, signal);
    },

    async withdraw(requestId, reason, terminalAnswer, withdrawOptions) {
      waiters.settle(requestId, { error: withdrawnError(requestId) });
      if (closed || link.failure) return;
      const command: WithdrawCommand = { requestId };
      if (reason !== undefined) command.reason = reason.slice(0, 2_000);
      if (terminalAnswer !== undefined) command.terminalAnswer = terminalAnswer;
      if (withdrawOptions?.afterAnswer) command.afterAnswer = true;
      await inFlight.track(sendWithdraw(socket, parser, options.url, command));
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
      return link.ready(timeoutMs);
    },

    async close() {
      if (closed) return;
      closed = true;
      link.close();
      announcer.stop();
      acks.flush();
      acks.stop();
      waiters.failAll(closedError());
      if (link.connected && inFlight.size > 0) await inFlight.drain(CLOSE_FLUSH_TIMEOUT_MS);
      link.disconnect();
      autoListeners.clear();
      connectionListeners.clear();
    },
  };
}

/** Resolves once the host confirmed (an unknown interaction counts: nothing is left to withdraw). */
function sendWithdraw(
  socket: RuntimeSocket,
  parser: HostMessageParser,
  url: string,
  command: WithdrawCommand,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    socket.timeout(WITHDRAW_TIMEOUT_MS).emit('withdraw', command, (error: Error | null, raw: unknown) => {
      if (error) {
        reject(unreachableError(url, 'withdraw was not acknowledged'));
        return;
      }
      // A reply not understood is reported and counts as done: the request is no longer awaited here.
      const ack = parser.reply(SimpleAckSchema, 'withdraw', raw);
      if (ack && !ack.ok && ack.error.code !== 'unknown-interaction') {
        reject(new HostConnectionError('rejected', ack.error.message));
        return;
      }
      resolve();
    });
  });
}

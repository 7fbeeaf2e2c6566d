import {
  AnnounceAckSchema,
  AnnounceBatchAckSchema,
  type AutoResolutionNotice,
  type InteractionRequest,
  type InteractionResolution,
} from '../contracts';
import { HostConnectionError } from './errors';
import { type RuntimeSocket } from './host-link';
import { type HostMessageParser } from './protocol-errors';
import { ReannounceBatcher, type BatchEntry } from './reannounce-batcher';

/** A batch not answered in time (an older host without `announce:batch`) falls back to full announces. */
const BATCH_ACK_TIMEOUT_MS = 5_000;

/** What the host's answers to announces mean for the tool calls waiting on them. */
export interface AnnounceOutcomes {
  resolved(requestId: string, resolution: InteractionResolution): void;
  /** Withdrawn, or refused for good: whoever waits rejects with this. */
  ended(requestId: string, error: HostConnectionError): void;
  autoResolution(notice: AutoResolutionNotice): void;
  /** The host could not take the request for now (its disk is full, R12.6): it is sent again on the next re-announce. */
  deferred(requestId: string, reason: string): void;
}

/** Refusals that clear up by themselves: the re-announce loop (R8.1) tries again, less often each time. */
const RETRIED = new Set(['rate-limited', 'internal', 'storage-unavailable']);

/**
 * A refused announce is sent again after this long, doubling with every refusal up to the cap (R12.17),
 * less up to half at random so the refused requests of many runtimes do not come back in step. Every
 * second instead, a runtime the host keeps refusing would re-send each of them in full for ever.
 */
export const ANNOUNCE_RETRY_BASE_MS = 1_000;
export const ANNOUNCE_RETRY_MAX_MS = 30_000;

/** When a refused request may be sent in full again: after `attempt` refusals in a row. */
export function announceRetryDelayMs(attempt: number, random: () => number = Math.random): number {
  const nominal = Math.min(ANNOUNCE_RETRY_MAX_MS, ANNOUNCE_RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1));
  return nominal * (1 - random() / 2);
}

/**
 * Announces each pending request (R8.1): in full after every (re)connect and
 * until the host accepted it on this connection, then by id only, batched
 * (R13.3). Keeps the newest announce of each request until it is forgotten.
 */
export class Announcer {
  /** The newest announce per pending requestId, re-sent on every (re)connect. */
  private readonly latest = new Map<string, InteractionRequest>();
  /** Requests the host accepted as pending on the current connection: re-announced by id only. */
  private readonly accepted = new Set<string>();
  /** Bumped on every connect and disconnect, so an ack from an earlier connection cannot mark a request accepted. */
  private generation = 0;
  /** Requests the host refused for now: how often in a row, and not before when they are sent in full again. */
  private readonly backoff = new Map<string, { refusals: number; until: number }>();
  private answeredCount = 0;
  private readonly batcher: ReannounceBatcher;

  constructor(
    private readonly socket: RuntimeSocket,
    private readonly parser: HostMessageParser,
    private readonly outcomes: AnnounceOutcomes,
    batchMs: number,
  ) {
    this.batcher = new ReannounceBatcher(batchMs, (entries) => this.sendBatch(entries));
  }

  /** Announces the host has answered so far, full or batched by id. */
  get answered(): number {
    return this.answeredCount;
  }

  /** A first announce or a re-announce; while disconnected it waits for the next connect. */
  announce(request: InteractionRequest): void {
    this.latest.set(request.requestId, request);
    if (!this.socket.connected) return;
    if (this.accepted.has(request.requestId)) this.batcher.add(request.requestId, request.protocolRequestId);
    else if ((this.backoff.get(request.requestId)?.until ?? 0) <= Date.now()) this.emitAnnounce(request);
  }

  /** Nobody waits for this request any more. */
  forget(requestId: string): void {
    this.latest.delete(requestId);
    this.accepted.delete(requestId);
    this.backoff.delete(requestId);
    this.batcher.delete(requestId);
  }

  /** The connection changed: the host may have restarted and lost its routes, so nothing counts as accepted. */
  reset(): void {
    this.generation += 1;
    this.accepted.clear();
    this.batcher.clear();
  }

  /** After a (re)connect: every pending request in full, then by id again; a new host may take what the old refused. */
  announceAll(): void {
    for (const request of this.latest.values()) this.emitAnnounce(request);
  }

  stop(): void {
    this.batcher.clear();
  }

  private emitAnnounce(request: InteractionRequest): void {
    const sentIn = this.generation;
    this.socket.emit('announce', request, (raw: unknown) => {
      // Not understood: the request stays unaccepted, so the next re-announce sends it in full again.
      const ack = this.parser.reply(AnnounceAckSchema, 'announce', raw);
      if (!ack) return;
      if (!ack.ok) {
        // Rate limits and transient host errors are retried by the re-announce loop.
        if (ack.error.code === 'storage-unavailable') this.outcomes.deferred(request.requestId, ack.error.message);
        if (RETRIED.has(ack.error.code)) return this.refused(request.requestId);
        const code = ack.error.code === 'withdrawn' ? 'withdrawn' : 'rejected';
        this.outcomes.ended(request.requestId, new HostConnectionError(code, ack.error.message));
        return;
      }
      this.answeredCount += 1;
      this.backoff.delete(request.requestId);
      if (ack.status === 'pending') {
        if (sentIn === this.generation && this.latest.has(request.requestId)) this.accepted.add(request.requestId);
        this.outcomes.autoResolution({ requestId: request.requestId, autoResolution: ack.autoResolution });
      } else if (ack.status === 'resolved') {
        this.outcomes.resolved(request.requestId, ack.resolution);
      } else {
        this.outcomes.ended(request.requestId, withdrawnError(request.requestId));
      }
    });
  }

  private refused(requestId: string): void {
    if (!this.latest.has(requestId)) return;
    const refusals = (this.backoff.get(requestId)?.refusals ?? 0) + 1;
    this.backoff.set(requestId, { refusals, until: Date.now() + announceRetryDelayMs(refusals) });
  }

  private sendBatch(entries: BatchEntry[]): void {
    const sentIn = this.generation;
    this.socket
      .timeout(BATCH_ACK_TIMEOUT_MS)
      .emit('announce:batch', { entries }, (error: Error | null, raw: unknown) => {
        const ack = error ? undefined : this.parser.reply(AnnounceBatchAckSchema, 'announce:batch', raw);
        if (!ack?.ok) {
          // Rate limits and transient errors: the next re-announce retries. Anything else
          // (no answer, a host without batches, a reply not understood): back to full announces for these.
          const code = ack?.error.code;
          if ((code === undefined || !RETRIED.has(code)) && sentIn === this.generation) {
            for (const entry of entries) this.accepted.delete(entry.requestId);
          }
          return;
        }
        this.answeredCount += entries.length - ack.unknown.length;
        for (const { requestId, resolution } of ack.resolved) {
          if (resolution.requestId === requestId) {
            this.outcomes.resolved(requestId, resolution);
            continue;
          }
          this.parser.report({
            event: 'announce:batch',
            reply: true,
            rule: `resolved: the entry for ${requestId} carries the resolution of ${resolution.requestId}`,
          });
        }
        for (const requestId of ack.withdrawn) this.outcomes.ended(requestId, withdrawnError(requestId));
        if (sentIn !== this.generation) return;
        // The host lost this request (restarted on another data dir): it needs the full request again.
        for (const requestId of ack.unknown) {
          this.accepted.delete(requestId);
          const request = this.latest.get(requestId);
          if (request && this.socket.connected) this.emitAnnounce(request);
        }
      });
  }
}

export function withdrawnError(requestId: string): HostConnectionError {
  return new HostConnectionError('withdrawn', `Interaction ${requestId} was withdrawn`);
}

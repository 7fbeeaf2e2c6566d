import { SimpleAckSchema } from '../contracts';
import { type HostMessageParser } from './protocol-errors';

/** How many unconfirmed acknowledgements a runtime keeps; the oldest are given up beyond it. */
export const MAX_UNCONFIRMED_ACKS = 1_000;
const ACK_TIMEOUT_MS = 5_000;
const ACK_RETRY_MS = 1_000;
const TRANSIENT_ACK_ERRORS: ReadonlySet<string> = new Set(['rate-limited', 'internal', 'storage-unavailable']);

export interface AckSocket {
  readonly connected: boolean;
  timeout(ms: number): {
    emit(
      event: 'resolution:ack',
      command: { requestId: string },
      ack: (error: Error | null, raw: unknown) => void,
    ): void;
  };
}

/**
 * R10.5: every resolution the runtime receives is acknowledged until the host
 * confirms it, across disconnects and host restarts, so "received by the agent"
 * is logged even when the first `resolution:ack` was lost. The host logs
 * `interaction.delivered` once, so re-sending is harmless.
 */
export class ResolutionAcks {
  /** requestId → the attempt in flight (0 when none); insertion order is age. */
  private readonly unconfirmed = new Map<string, number>();
  private attempts = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Acks to send once the current turn of the event loop is done (so after the tool call has its answer). */
  private readonly queued = new Set<string>();
  private flushHandle: ReturnType<typeof setImmediate> | undefined;

  constructor(
    private readonly socket: AckSocket,
    private readonly track: (settled: Promise<void>) => void,
    private readonly parser: HostMessageParser,
  ) {}

  get pending(): number {
    return this.unconfirmed.size;
  }

  acknowledge(requestId: string): void {
    this.unconfirmed.delete(requestId);
    this.unconfirmed.set(requestId, 0);
    for (const oldest of this.unconfirmed.keys()) {
      if (this.unconfirmed.size <= MAX_UNCONFIRMED_ACKS) break;
      this.unconfirmed.delete(oldest);
    }
    this.queued.add(requestId);
    this.flushHandle ??= setImmediate(() => this.flush());
  }

  /** Sends the acks queued by `acknowledge` now; a connection about to close calls it first. */
  flush(): void {
    clearImmediate(this.flushHandle);
    this.flushHandle = undefined;
    const queued = [...this.queued];
    this.queued.clear();
    // While disconnected they wait, unconfirmed, for resendAll on the next connect.
    if (!this.socket.connected) return;
    for (const requestId of queued) if (this.unconfirmed.get(requestId) === 0) this.send(requestId);
  }

  /** After a (re)connect: whatever the host has not confirmed goes again. */
  resendAll(): void {
    this.queued.clear();
    for (const requestId of this.unconfirmed.keys()) this.send(requestId);
  }

  stop(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    clearImmediate(this.flushHandle);
    this.flushHandle = undefined;
    this.queued.clear();
  }

  private send(requestId: string): void {
    this.attempts += 1;
    const attempt = this.attempts;
    this.unconfirmed.set(requestId, attempt);
    this.track(
      new Promise<void>((resolve) => {
        this.socket.timeout(ACK_TIMEOUT_MS).emit('resolution:ack', { requestId }, (error, raw) => {
          resolve();
          // A reply to an attempt that a newer one replaced changes nothing.
          if (this.unconfirmed.get(requestId) !== attempt) return;
          // No reply, or one not understood, is treated like a transient error: sent again. So is a log that
          // could not take the write (a full disk, a team hub's database away or contended, R12.6, R20.19).
          const ack = error ? undefined : this.parser.reply(SimpleAckSchema, 'resolution:ack', raw);
          const transient = ack === undefined || (!ack.ok && TRANSIENT_ACK_ERRORS.has(ack.error.code));
          if (!transient) {
            // Confirmed, or refused for good (unknown interaction after a data-dir reset): retrying cannot help.
            this.unconfirmed.delete(requestId);
            return;
          }
          this.unconfirmed.set(requestId, 0);
          // A disconnect is handled by resendAll on the next connect; a live but slow host gets a retry.
          if (this.socket.connected) this.scheduleRetry();
        });
      }),
    );
  }

  private scheduleRetry(): void {
    if (this.retryTimer !== undefined) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.socket.connected) return;
      for (const [requestId, attempt] of this.unconfirmed) if (attempt === 0) this.send(requestId);
    }, ACK_RETRY_MS);
    this.retryTimer.unref();
  }
}

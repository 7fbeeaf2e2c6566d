import { MAX_ANNOUNCE_BATCH, MAX_MESSAGE_BYTES, type AnnounceBatch } from '../contracts';

export type BatchEntry = AnnounceBatch['entries'][number];

/** Re-announces of accepted requests are collected this long, then sent as one message per connection. */
export const DEFAULT_REANNOUNCE_BATCH_MS = 250;
/** Room for the envelope and JSON escaping: a batch must stay under the host's message limit. */
const MAX_BATCH_BYTES = Math.floor(MAX_MESSAGE_BYTES / 2);
const ENTRY_OVERHEAD_BYTES = 40;

/**
 * Coalesces re-announces (R8.1) by requestId: within one window only the newest
 * protocolRequestId of each request is sent, in as few `announce:batch`
 * messages as the count and size limits allow. Costs the host a few µs per
 * entry instead of parsing and validating the full request every second (R13.3).
 */
export class ReannounceBatcher {
  private readonly queued = new Map<string, string>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly windowMs: number,
    private readonly send: (entries: BatchEntry[]) => void,
  ) {}

  add(requestId: string, protocolRequestId: string): void {
    this.queued.set(requestId, protocolRequestId);
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => this.flush(), this.windowMs);
    // Waiting callers keep the process alive through the socket, not through this timer.
    this.timer.unref();
  }

  delete(requestId: string): void {
    this.queued.delete(requestId);
  }

  /** Drops what is queued, e.g. on disconnect: the (re)connect sends full announces instead. */
  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.queued.clear();
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    let chunk: BatchEntry[] = [];
    let bytes = 0;
    for (const [requestId, protocolRequestId] of this.queued) {
      const size = requestId.length + protocolRequestId.length + ENTRY_OVERHEAD_BYTES;
      if (chunk.length > 0 && (chunk.length >= MAX_ANNOUNCE_BATCH || bytes + size > MAX_BATCH_BYTES)) {
        this.send(chunk);
        chunk = [];
        bytes = 0;
      }
      chunk.push({ requestId, protocolRequestId });
      bytes += size;
    }
    this.queued.clear();
    if (chunk.length > 0) this.send(chunk);
  }
}

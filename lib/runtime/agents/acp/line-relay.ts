// The ACP proxy's byte-exact relay (R12.21): messages are split on `\n` bytes only (a bare `\r` or bytes that
// are not UTF-8 pass through as they came), a line up to `readMax` is handed over whole for the proxy to look
// at, a longer one is written on chunk by chunk as it arrives and never held, and the side being read is
// paused while the side written to has not drained, so a reader that stops reading costs a buffer, not memory.
import { type Readable, type Writable } from 'node:stream';

const NEWLINE = 0x0a;

/**
 * One side the proxy writes to. Two writers share it: the relay of the other side's messages and the proxy's
 * own messages (an answer from the phone, a cancel). A message of the proxy's own waits while an over-long
 * line is half written, so it never lands inside one.
 */
export interface LineWriter {
  /** A whole message: its bytes, then a newline. */
  message(bytes: Buffer | string): void;
  /** Part of an over-long line; `end` says whether this part ends it (its newline included). */
  part(bytes: Buffer, end: boolean): void;
  /** The last bytes of a side that closed without a newline, relayed as they came. */
  tail(bytes: Buffer): void;
  /** Whether the side's buffer is full: the reader pauses until it drains. */
  full(): boolean;
  /** Resolves once the buffer has drained (or the side is gone, when nothing will drain it). */
  drained(): Promise<void>;
}

export function lineWriter(target: Writable): LineWriter {
  let midLine = false;
  const waiting: (Buffer | string)[] = [];
  const gone = () => target.destroyed || !target.writable;
  const write = (bytes: Buffer | string) => {
    if (!gone()) target.write(bytes);
  };
  return {
    message(bytes) {
      if (midLine) {
        waiting.push(bytes);
        return;
      }
      write(bytes);
      write('\n');
    },
    part(bytes, end) {
      midLine = !end;
      write(bytes);
      if (end) for (const bytes of waiting.splice(0)) this.message(bytes);
    },
    tail(bytes) {
      write(bytes);
    },
    full: () => !gone() && target.writableNeedDrain,
    drained: () =>
      new Promise<void>((resolve) => {
        if (gone() || !target.writableNeedDrain) return resolve();
        const done = () => {
          target.off('drain', done);
          target.off('close', done);
          resolve();
        };
        target.on('drain', done);
        target.on('close', done);
      }),
  };
}

export interface RelayLinesOptions {
  source: Readable;
  to: LineWriter;
  /** Longest line handed to `onLine`; a longer one is streamed through without a look. */
  readMax: number;
  /** A whole line (without its newline) of at most `readMax` bytes: the proxy looks, then relays or drops it. */
  onLine: (line: Buffer) => void;
  /** A line passed `readMax` and is being streamed through unread (once per line). */
  onOverLong?: () => void;
}

/** Relays `source` line by line until it ends; resolves then. */
export function relayLines(options: RelayLinesOptions): Promise<void> {
  const { source, to, readMax } = options;
  let held: Buffer[] = [];
  let heldBytes = 0;
  let streaming = false;
  const take = () => {
    const bytes = held.length === 1 ? (held[0] ?? Buffer.alloc(0)) : Buffer.concat(held, heldBytes);
    held = [];
    heldBytes = 0;
    return bytes;
  };
  const stream = (bytes: Buffer, end: boolean) => {
    if (!streaming) options.onOverLong?.();
    streaming = !end;
    if (heldBytes > 0) to.part(take(), false);
    to.part(bytes, end);
  };
  const onData = (chunk: Buffer) => {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline === -1) {
        const rest = chunk.subarray(start);
        if (streaming || heldBytes + rest.length > readMax) stream(rest, false);
        else {
          held.push(rest);
          heldBytes += rest.length;
        }
        break;
      }
      const length = heldBytes + newline - start;
      if (streaming || length > readMax) stream(chunk.subarray(start, newline + 1), true);
      else {
        held.push(chunk.subarray(start, newline));
        heldBytes += newline - start;
        options.onLine(take());
      }
      start = newline + 1;
    }
    if (to.full()) {
      source.pause();
      void to.drained().then(() => source.resume());
    }
  };
  return new Promise<void>((resolve) => {
    source.on('data', onData);
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      source.off('data', onData);
      if (heldBytes > 0) to.tail(take());
      resolve();
    };
    source.once('end', finish);
    source.once('close', finish);
    source.once('error', finish);
  });
}

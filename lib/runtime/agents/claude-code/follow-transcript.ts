import { watch, type FSWatcher } from 'node:fs';
import { openRegularFile } from '../../safe-file';
import { TRANSCRIPT_TAIL_BYTES } from './transcript';

/** Calls `tick` every `ms` until the returned function is called (`tick` resolves when its read is done). Tests tick by hand. */
export type Every = (ms: number, tick: () => Promise<void>) => () => void;

export interface FollowOptions {
  /** The poll that catches what fs.watch misses (no inotify, a replaced file); a real timer by default. */
  every?: Every;
  /** Wake on fs.watch events as well as on the poll (default true). */
  fsWatch?: boolean;
  /** A longer line (a huge tool output) is skipped rather than held in memory (default 8 MB). */
  maxLineBytes?: number;
}

export interface TranscriptFollower {
  /** Reads what was appended since the last read; resolves when done. Never rejects. */
  check(): Promise<void>;
  stop(): void;
}

/** How often the file is looked at when fs.watch says nothing. */
export const FOLLOW_POLL_MS = 1_000;
const CHUNK_BYTES = 256 * 1024;
const MAX_LINE_BYTES = 8 * 1024 * 1024;
const NEWLINE = 0x0a;

const realEvery: Every = (ms, tick) => {
  const timer = setInterval(() => void tick(), ms);
  timer.unref();
  return () => clearInterval(timer);
};

/**
 * Follows a JSONL file that only grows (a Claude Code transcript): hands over each complete line once.
 * The first read starts at the file's last {@link TRANSCRIPT_TAIL_BYTES} (`catchUp`), later reads take
 * only the appended bytes. A missing file is looked for again on every poll; a file that shrank or was
 * replaced is read again from its tail, as a catch-up. Only a regular file is read, never a FIFO or a link
 * (R12.16), and lines are handed over chunk by chunk, so a burst of appends never sits in memory at once.
 * Never throws.
 */
export function followTranscript(
  file: string,
  onLines: (lines: string[], catchUp: boolean) => void,
  options: FollowOptions = {},
): TranscriptFollower {
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  let stopped = false;
  let offset: number | undefined;
  let inode: number | undefined;
  let partial: Buffer[] = [];
  let partialBytes = 0;
  /** Dropping bytes up to the next newline: a line cut by the tail start, or one over the limit. */
  let skipping = false;
  let watcher: FSWatcher | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  const unwatch = () => {
    watcher?.close();
    watcher = undefined;
  };
  const arm = () => {
    if (options.fsWatch === false || watcher || stopped) return;
    try {
      watcher = watch(file, { persistent: false }, (event) => {
        // A rename means the name may now point at another file: watch that one from the next check.
        if (event === 'rename') unwatch();
        void check();
      });
      watcher.on('error', unwatch);
    } catch {
      // Not there (yet): the poll looks again.
    }
  };

  const split = (chunk: Buffer, lines: string[]) => {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      if (!skipping && partialBytes + end - start <= maxLineBytes)
        lines.push(Buffer.concat([...partial, chunk.subarray(start, end)]).toString('utf8'));
      partial = [];
      partialBytes = 0;
      skipping = false;
      start = end + 1;
    }
    if (skipping || start >= chunk.length) return;
    partial.push(Buffer.from(chunk.subarray(start)));
    partialBytes += chunk.length - start;
    if (partialBytes > maxLineBytes) {
      partial = [];
      partialBytes = 0;
      skipping = true;
    }
  };

  const readAppended = async () => {
    let opened;
    try {
      opened = await openRegularFile(file, { noFollow: true });
    } catch {
      offset = undefined;
      return;
    }
    const { handle } = opened;
    try {
      const { size, ino } = opened.stats;
      let catchUp = false;
      if (offset === undefined || ino !== inode || size < offset) {
        offset = Math.max(0, size - TRANSCRIPT_TAIL_BYTES);
        inode = ino;
        partial = [];
        partialBytes = 0;
        skipping = offset > 0;
        catchUp = true;
      }
      while (offset < size && !stopped) {
        const buffer = Buffer.alloc(Math.min(size - offset, CHUNK_BYTES));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
        if (bytesRead === 0) break;
        offset += bytesRead;
        const lines: string[] = [];
        split(buffer.subarray(0, bytesRead), lines);
        if (lines.length > 0 && !stopped) onLines(lines, catchUp);
      }
      arm();
    } catch {
      // A read that failed is tried again at the next check.
    } finally {
      await handle.close().catch(() => undefined);
    }
  };

  const check = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await readAppended();
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  const cancelPoll = (options.every ?? realEvery)(FOLLOW_POLL_MS, check);
  return {
    check,
    stop() {
      stopped = true;
      cancelPoll();
      unwatch();
    },
  };
}

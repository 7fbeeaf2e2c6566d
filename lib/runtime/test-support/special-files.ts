import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';

/** A file that is not what a reader expects, and how to take it away again. */
export interface SpecialFile {
  file: string;
  /** Wakes any thread still blocked opening it (code that opened a FIFO and waits for a writer), then removes it. */
  remove(): void;
}

/** A FIFO nobody writes to: opening it for reading the ordinary way waits for a writer, for ever. */
export function makeFifo(file: string): SpecialFile {
  const made = spawnSync('mkfifo', [file]);
  if (made.status !== 0) throw new Error(`mkfifo ${file}: ${made.stderr.toString()}`);
  return {
    file,
    remove() {
      try {
        // Opening it read-write never blocks and counts as a writer: every blocked reader's open returns.
        // The name goes before this fd closes, so a reader queued behind them gets ENOENT, not a new wait.
        const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
        fs.unlinkSync(file);
        fs.closeSync(fd);
      } catch {
        fs.rmSync(file, { force: true });
      }
    },
  };
}

/**
 * A FIFO whose writer (a child process) waits for a reader and then writes `content`: code that opens it the
 * ordinary way reads `content` instead of waiting for ever (so a test of that code fails rather than hangs),
 * while code that refuses a FIFO never wakes the writer.
 */
export function makeFifoWithWriter(file: string, content: string): SpecialFile {
  const fifo = makeFifo(file);
  const writer = spawn(
    process.execPath,
    ['-e', 'require("fs").writeFileSync(process.argv[1], process.argv[2])', file, content],
    {
      stdio: 'ignore',
    },
  );
  return {
    file,
    remove() {
      writer.kill('SIGKILL');
      fifo.remove();
    },
  };
}

/** A link to /dev/zero: a file of no stated size that never ends. */
export function makeDevZeroLink(file: string): SpecialFile {
  fs.symlinkSync('/dev/zero', file);
  return { file, remove: () => fs.rmSync(file, { force: true }) };
}

/** A sparse regular file of `bytes` (nothing on disk), starting with `content`. */
export function makeHugeFile(file: string, bytes: number, content = ''): SpecialFile {
  fs.writeFileSync(file, content);
  fs.truncateSync(file, bytes);
  return { file, remove: () => fs.rmSync(file, { force: true }) };
}

// Files something outside names (a hook's payload, an agent's home, an agent's config): opened so that a FIFO,
// a device or a link to one can neither hold a thread of the pool nor fill memory (R12.16).
import { constants, type Stats } from 'node:fs';
import { lstat, open, stat, type FileHandle } from 'node:fs/promises';

export interface OutsideFileOptions {
  /**
   * Refuse a symbolic link as the file itself (its folders may still be links): for files the agent writes
   * itself (a transcript, a plan, a pid file), never a person's link. Config files a person keeps in a
   * dotfiles repository are followed.
   */
  noFollow?: boolean;
}

/** A named file that is not a regular file, or is larger than its reader takes. */
export class OutsideFileError extends Error {
  constructor(
    readonly file: string,
    readonly reason: 'not-regular' | 'too-large',
    message: string,
  ) {
    super(message);
    this.name = 'OutsideFileError';
  }
}

/** The size a reader of a person's agent config file takes (Claude Code's settings.json, Codex's hooks.json…). */
export const AGENT_CONFIG_MAX_BYTES = 4 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
const NON_BLOCKING = constants.O_RDONLY | constants.O_NONBLOCK;

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isDirectory()) return 'a directory';
  return 'not a regular file';
}

function notRegular(file: string, stats: Stats): OutsideFileError {
  const kind = kindOf(stats);
  return new OutsideFileError(file, 'not-regular', `${file} is not a regular file (${kind})`);
}

/**
 * Opens a regular file for reading, without blocking: the path is looked at first (so a FIFO or a device is
 * never opened), then opened with O_NONBLOCK (a FIFO swapped in meanwhile opens at once instead of waiting
 * for a writer) and the handle itself checked. Throws an OutsideFileError for anything but a regular file,
 * and Node's own error (ENOENT…) when it cannot be opened. The caller closes the handle and reads it
 * asynchronously, in bounded pieces.
 */
export async function openRegularFile(
  file: string,
  options: OutsideFileOptions = {},
): Promise<{ handle: FileHandle; stats: Stats }> {
  const named = options.noFollow ? await lstat(file) : await stat(file);
  if (!named.isFile()) throw notRegular(file, named);
  const handle = await open(file, NON_BLOCKING | (options.noFollow ? constants.O_NOFOLLOW : 0));
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notRegular(file, stats);
    return { handle, stats };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/** A whole regular file of at most `maxBytes` (also when it grows while read); a larger one is refused. */
export async function readRegularFile(
  file: string,
  options: OutsideFileOptions & { maxBytes: number },
): Promise<Buffer> {
  const { handle, stats } = await openRegularFile(file, options);
  const tooLarge = (size: number) =>
    new OutsideFileError(file, 'too-large', `${file} is ${size} bytes, more than the ${options.maxBytes} read of it`);
  try {
    if (stats.size > options.maxBytes) throw tooLarge(stats.size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, options.maxBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > options.maxBytes) throw tooLarge(total);
    }
    return Buffer.concat(chunks, total);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** {@link readRegularFile} as UTF-8 text. */
export async function readRegularText(
  file: string,
  options: OutsideFileOptions & { maxBytes: number },
): Promise<string> {
  return (await readRegularFile(file, options)).toString('utf8');
}

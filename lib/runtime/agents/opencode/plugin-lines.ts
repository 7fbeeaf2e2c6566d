// The plugin's lines as the bridge reads them (R12.19): split on `\n` bytes in time linear in their size, each
// line held only up to `maxBytes`. A longer line is dropped as it streams in, never held whole (readline would
// keep a line without end in memory for as long as its writer goes on).
const NEWLINE = 0x0a;

export interface BoundedLinesOptions {
  input: NodeJS.ReadableStream;
  /** The longest line handed over, in bytes (without its newline). */
  maxBytes: number;
  onLine: (line: string) => void;
  /** A line went past `maxBytes`: it was dropped (once per line, when it ends or the input does). */
  onOverLong: (bytes: number) => void;
}

/** Reads `input` line by line until it ends or closes; resolves then. A last line without a newline counts too. */
export function readBoundedLines({ input, maxBytes, onLine, onOverLong }: BoundedLinesOptions): Promise<void> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  /** The bytes of an over-long line dropped so far; 0 while the line is within bounds. */
  let dropped = 0;

  const endLine = () => {
    if (dropped > 0) onOverLong(dropped);
    else if (heldBytes > 0) onLine(Buffer.concat(held, heldBytes).toString('utf8'));
    held = [];
    heldBytes = 0;
    dropped = 0;
  };
  /** Part of the current line, without a newline. */
  const take = (part: Buffer) => {
    if (part.length === 0) return;
    if (dropped > 0) {
      dropped += part.length;
      return;
    }
    if (heldBytes + part.length > maxBytes) {
      dropped = heldBytes + part.length;
      held = [];
      heldBytes = 0;
      return;
    }
    // A copy: the stream may reuse the chunk's memory, and a small part must not keep a large chunk alive.
    held.push(Buffer.from(part));
    heldBytes += part.length;
  };

  return new Promise<void>((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      endLine();
      resolve();
    };
    input.on('data', (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      let start = 0;
      for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
        take(bytes.subarray(start, end));
        endLine();
        start = end + 1;
      }
      take(bytes.subarray(start));
    });
    input.once('end', finish);
    input.once('close', finish);
    input.once('error', finish);
  });
}

import { isRecord } from '../../../contracts';
import { openRegularFile, OutsideFileError } from '../../safe-file';

/** Only the tail of a transcript is read: sessions grow to many megabytes. */
export const TRANSCRIPT_TAIL_BYTES = 256 * 1024;
const MAX_MESSAGE_CHARS = 8_000;

/**
 * The text of the last assistant message in a Claude Code transcript (JSONL),
 * read from its last `maxBytes`. Never throws: context is a courtesy, and a
 * missing, partial or odd transcript (a FIFO, a link, R12.16) must not stop the question. A transcript refused
 * for what it is (not a regular file) is said in one `log` line (docs/THREAT-MODEL.md); a missing one is not.
 */
export async function readLastAssistantMessage(
  path: string | undefined,
  maxBytes = TRANSCRIPT_TAIL_BYTES,
  log: (line: string) => void = () => undefined,
): Promise<string | undefined> {
  if (!path) return undefined;
  try {
    const { handle: file, stats } = await openRegularFile(path, { noFollow: true });
    try {
      const { size } = stats;
      const length = Math.min(size, maxBytes);
      const buffer = Buffer.alloc(length);
      await file.read(buffer, 0, length, size - length);
      const lines = buffer.toString('utf8').split('\n');
      // The first line may be cut in half when we started mid-file.
      if (size > length) lines.shift();
      for (let index = lines.length - 1; index >= 0; index -= 1) {
        const text = assistantText(lines[index] ?? '');
        if (text) return text.length > MAX_MESSAGE_CHARS ? `…${text.slice(-(MAX_MESSAGE_CHARS - 1))}` : text;
      }
      return undefined;
    } finally {
      await file.close();
    }
  } catch (error) {
    if (error instanceof OutsideFileError) log(`askaway hook: not reading the transcript: ${error.message}`);
    return undefined;
  }
}

function assistantText(line: string): string | undefined {
  if (!line.includes('"assistant"')) return undefined;
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(entry) || entry.type !== 'assistant' || !isRecord(entry.message)) return undefined;
  const content = entry.message.content;
  if (typeof content === 'string') return content.trim() || undefined;
  if (!Array.isArray(content)) return undefined;
  const text = content
    .filter(
      (part): part is { type: 'text'; text: string } =>
        isRecord(part) && part.type === 'text' && typeof part.text === 'string',
    )
    .map((part) => part.text)
    .join('\n')
    .trim();
  return text || undefined;
}

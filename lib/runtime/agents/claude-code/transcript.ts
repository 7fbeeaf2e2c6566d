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
  const lines = await readTailLines(path, maxBytes, log);
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const text = assistantText(lines[index] ?? '');
    if (text) return text.length > MAX_MESSAGE_CHARS ? `…${text.slice(-(MAX_MESSAGE_CHARS - 1))}` : text;
  }
  return undefined;
}

/**
 * The `uuid` of the transcript's last assistant entry, whatever it holds (text, a tool call): what tells one of a
 * session's turns from another where `prompt_id` cannot (R19.51). Never throws.
 */
export async function readLastAssistantUuid(
  path: string | undefined,
  log: (line: string) => void = () => undefined,
): Promise<string | undefined> {
  const lines = await readTailLines(path, TRANSCRIPT_TAIL_BYTES, log);
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const line = lines[index] ?? '';
    if (!line.includes('"assistant"')) continue;
    const entry = parseLine(line);
    if (isRecord(entry) && entry.type === 'assistant' && typeof entry.uuid === 'string' && entry.uuid !== '')
      return entry.uuid.slice(0, 200);
  }
  return undefined;
}

/**
 * How many times in a row Stop hooks have continued the turn since the person last typed a prompt: the "Stop hook
 * feedback" rows Claude Code (2.1.332) records for each block, counted back to the last human prompt. Claude Code
 * overrides a block past its cap and ends the turn (R19.56). Never throws; 0 when the transcript cannot be read.
 */
export async function countStopHookContinuations(
  path: string | undefined,
  log: (line: string) => void = () => undefined,
): Promise<number> {
  const lines = await readTailLines(path, TRANSCRIPT_TAIL_BYTES, log);
  let count = 0;
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const line = lines[index] ?? '';
    if (!line.includes('"user"')) continue;
    const entry = parseLine(line);
    if (!isRecord(entry) || entry.type !== 'user') continue;
    if (isRecord(entry.origin) && entry.origin.kind === 'human') break;
    const content = isRecord(entry.message) ? entry.message.content : undefined;
    if (entry.rowSource === 'hook' && typeof content === 'string' && content.startsWith('Stop hook feedback'))
      count += 1;
  }
  return count;
}

/** The complete lines of the file's last `maxBytes`; none for a missing file or one refused (R12.16). */
async function readTailLines(
  path: string | undefined,
  maxBytes: number,
  log: (line: string) => void,
): Promise<string[]> {
  if (!path) return [];
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
      return lines;
    } finally {
      await file.close();
    }
  } catch (error) {
    if (error instanceof OutsideFileError) log(`askaway hook: not reading the transcript: ${error.message}`);
    return [];
  }
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function assistantText(line: string): string | undefined {
  if (!line.includes('"assistant"')) return undefined;
  const entry = parseLine(line);
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

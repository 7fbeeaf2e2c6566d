import { isRecord } from '../../../contracts';
import { followTranscript, type FollowOptions } from './follow-transcript';

/** What the transcript said after a finished turn's hook started watching it (R19.54). */
export type TranscriptNews =
  /** The person typed a prompt at the terminal (queued behind a waiting Stop hook, or run at once). */
  | 'typed'
  /** Claude went on by itself (a background task, a scheduled prompt woke it): the turn is no longer its last. */
  | 'working';

/** A human prompt: queued while a Stop hook waits (`queue-operation` enqueue) or recorded as the user's message. */
function isTypedPrompt(entry: Record<string, unknown>): boolean {
  if (entry.type === 'queue-operation') return entry.operation === 'enqueue';
  if (entry.type !== 'user' || entry.isMeta === true) return false;
  return isRecord(entry.origin) && entry.origin.kind === 'human';
}

/** Whether a line read on the first look (already there) was written after `since`: its `timestamp` says. */
function writtenSince(entry: Record<string, unknown>, since: number): boolean {
  const at = typeof entry.timestamp === 'string' ? Date.parse(entry.timestamp) : Number.NaN;
  return Number.isFinite(at) && at >= since;
}

/**
 * Calls `heard` once with what the transcript says happened after the hook started (`startedAt`, the hook process's
 * start): a typed prompt (R19.54), or Claude working again on its own. Lines written before are not news, so the
 * prompt that started the session or the turn is never taken for an answer; a prompt typed while Node was still
 * starting is (its line is dated after `startedAt`). Returns how to stop, and `check()` to read the file now (right
 * before a reply is handed to Claude Code). Never throws.
 */
export function watchTranscriptNews(
  transcriptPath: string | undefined,
  startedAt: number,
  heard: (news: TranscriptNews) => void,
  options?: FollowOptions,
): { stop(): void; check(): Promise<void> } {
  if (!transcriptPath) return { stop: () => undefined, check: async () => undefined };
  let done = false;
  const follower = followTranscript(
    transcriptPath,
    (lines, catchUp) => {
      if (done) return;
      for (const line of lines) {
        if (!line.includes('"type"')) continue;
        let entry: unknown;
        try {
          entry = JSON.parse(line);
        } catch {
          continue;
        }
        if (!isRecord(entry) || (catchUp && !writtenSince(entry, startedAt))) continue;
        const news: TranscriptNews | undefined = isTypedPrompt(entry)
          ? 'typed'
          : entry.type === 'assistant'
            ? 'working'
            : undefined;
        if (news === undefined) continue;
        done = true;
        follower.stop();
        heard(news);
        return;
      }
    },
    options,
  );
  void follower.check();
  return { stop: () => follower.stop(), check: () => follower.check() };
}

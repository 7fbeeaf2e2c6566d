import { isDeepStrictEqual } from 'node:util';
import { isRecord } from '../../../contracts';

/** The permission prompt a PermissionRequest hook waits on, as far as the transcript can tell it apart. */
export interface PendingPrompt {
  toolName: string;
  /** The tool input the hook received (Claude Code sends no tool_use_id with PermissionRequest). */
  toolInput: Record<string, unknown>;
  /** When Claude Code started the hook (ms since the epoch): a tool result dated before then answered an older call. */
  startedAt: number;
}

/** Feeds transcript lines, in file order; `true` once the prompt's own tool call has its result. */
export interface SettlementMatcher {
  /** `catchUp`: the line was already in the file when the hook looked first (or after the file was replaced). */
  feed(line: string, catchUp: boolean): boolean;
}

/**
 * Recognises, in a Claude Code transcript (JSONL), that the permission prompt a hook is waiting on was
 * answered somewhere else (in the terminal). Claude Code 2.1.332 logs the assistant's `tool_use` line
 * (dated before the hook, though the write may land after the hook first looked) and a user line with the
 * matching `tool_result` once the prompt is decided (approved: the tool's result, when it has run;
 * rejected: an error result). Precision, so that no other call withdraws the card:
 * - only tool calls of the same tool, from the main conversation (not sidechain lines), that were
 *   still waiting for a result;
 * - only results dated at or after `startedAt` (untimed lines only when they were appended while the hook
 *   watched): an older call of the same tool was answered before this one was even made. A result for
 *   this call may already be in the file at the first look (the terminal answered while the hook booted);
 *   its date tells it apart;
 * - when a waiting call has exactly the hook's tool input, only such a call counts (several calls of
 *   one tool in a turn). Claude Code does not always log the input it hands the hook (a plan given inline
 *   without a plan file is logged as given but sent to the hook as `{}`), so without such a call any
 *   waiting call of the tool counts.
 */
export function settlementMatcher(prompt: PendingPrompt): SettlementMatcher {
  /** Calls of the tool still waiting for their result: id → input. */
  const waiting = new Map<string, unknown>();
  return {
    feed(line, catchUp) {
      // Most lines are neither (attachments, request records): skip them before parsing.
      if (!line.includes('"tool_use') && !line.includes('"tool_result"')) return false;
      const entry = parse(line);
      if (!entry || entry.isSidechain === true || !isRecord(entry.message)) return false;
      const blocks = Array.isArray(entry.message.content) ? entry.message.content.filter(isRecord) : [];
      if (entry.type === 'assistant') {
        for (const block of blocks) {
          if (block.type === 'tool_use' && block.name === prompt.toolName && typeof block.id === 'string')
            waiting.set(block.id, block.input);
        }
        return false;
      }
      if (entry.type !== 'user') return false;
      const fresh = isFresh(entry.timestamp, prompt.startedAt, catchUp);
      let settled = false;
      for (const block of blocks) {
        if (block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') continue;
        if (!waiting.has(block.tool_use_id)) continue;
        const input = waiting.get(block.tool_use_id);
        const exact = [...waiting.values()].some((candidate) => isDeepStrictEqual(candidate, prompt.toolInput));
        waiting.delete(block.tool_use_id);
        if (fresh && (!exact || isDeepStrictEqual(input, prompt.toolInput))) settled = true;
      }
      return settled;
    },
  };
}

function parse(line: string): Record<string, unknown> | undefined {
  try {
    const entry: unknown = JSON.parse(line);
    return isRecord(entry) ? entry : undefined;
  } catch {
    return undefined;
  }
}

function isFresh(timestamp: unknown, startedAt: number, catchUp: boolean): boolean {
  const at = typeof timestamp === 'string' ? Date.parse(timestamp) : Number.NaN;
  return Number.isNaN(at) ? !catchUp : at >= startedAt;
}

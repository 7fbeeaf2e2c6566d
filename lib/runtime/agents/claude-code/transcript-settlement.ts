import { isDeepStrictEqual } from 'node:util';
import { isRecord } from '../../../contracts';

/** The permission prompt a PermissionRequest hook waits on, as far as the transcript can tell it apart. */
export interface PendingPrompt {
  toolName: string;
  /** The tool input the hook received (Claude Code sends no tool_use_id with PermissionRequest). */
  toolInput: Record<string, unknown>;
  /** When Claude Code started the hook (ms since the epoch): a tool result dated before then answered an older call. */
  startedAt: number;
  /**
   * The payload's `prompt_id` (Claude Code 2.1.200 on): the person's prompt the call belongs to. Every call of
   * that turn shares it, so it narrows the search and never settles a call alone.
   */
  promptId?: string | undefined;
}

/** How the prompt was decided, as the transcript tells it. */
export interface Settlement {
  /** Claude Code's `toolUseResult`: AskUserQuestion's `{questions, answers, annotations}`, or an error text. */
  result: unknown;
  /** The tool result was an error (a rejection, "Chat about this"). */
  isError: boolean;
  /** Who decided (Claude Code 2.1.293 on): `user_temporary` (the terminal), `user_reject`, `hook`. */
  source?: string;
}

/** Feeds transcript lines, in file order; the settlement once the prompt's own tool call has its result. */
export interface SettlementMatcher {
  /** `catchUp`: the line was already in the file when the hook looked first (or after the file was replaced). */
  feed(line: string, catchUp: boolean): Settlement | undefined;
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
 *   waiting call of the tool counts;
 * - with a `promptId`, only results of that prompt; and a result of that prompt whose call was not seen
 *   (logged before the transcript's tail) counts when it answers exactly the hook's questions: two
 *   AskUserQuestion calls of one turn share the prompt id, never their questions.
 */
export function settlementMatcher(prompt: PendingPrompt): SettlementMatcher {
  /** Calls of the tool still waiting for their result: id → input. */
  const waiting = new Map<string, unknown>();
  return {
    feed(line, catchUp) {
      // Most lines are neither (attachments, request records): skip them before parsing.
      if (!line.includes('"tool_use') && !line.includes('"tool_result"')) return undefined;
      const entry = parse(line);
      if (!entry || entry.isSidechain === true || !isRecord(entry.message)) return undefined;
      const blocks = Array.isArray(entry.message.content) ? entry.message.content.filter(isRecord) : [];
      if (entry.type === 'assistant') {
        for (const block of blocks) {
          if (block.type === 'tool_use' && block.name === prompt.toolName && typeof block.id === 'string')
            waiting.set(block.id, block.input);
        }
        return undefined;
      }
      if (entry.type !== 'user') return undefined;
      const ofPrompt = prompt.promptId === undefined || typeof entry.promptId !== 'string';
      if (!ofPrompt && entry.promptId !== prompt.promptId) return undefined;
      const fresh = isFresh(entry.timestamp, prompt.startedAt, catchUp);
      let settled: Settlement | undefined;
      for (const block of blocks) {
        if (block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') continue;
        if (!waiting.has(block.tool_use_id)) {
          if (fresh && !ofPrompt && answersSameQuestions(entry.toolUseResult, prompt.toolInput))
            settled = settlementOf(entry, block);
          continue;
        }
        const input = waiting.get(block.tool_use_id);
        const exact = [...waiting.values()].some((candidate) => isDeepStrictEqual(candidate, prompt.toolInput));
        waiting.delete(block.tool_use_id);
        if (fresh && (!exact || isDeepStrictEqual(input, prompt.toolInput))) settled = settlementOf(entry, block);
      }
      return settled;
    },
  };
}

function settlementOf(entry: Record<string, unknown>, block: Record<string, unknown>): Settlement {
  const decision = isRecord(entry.permissionDecision) ? entry.permissionDecision : undefined;
  return {
    result: entry.toolUseResult,
    isError:
      block.is_error === true || (typeof entry.toolUseResult === 'string' && entry.toolUseResult.startsWith('Error')),
    ...(typeof decision?.source === 'string' ? { source: decision.source } : {}),
  };
}

/** AskUserQuestion's result names the questions it answers: the same texts as the hook's, in order. */
function answersSameQuestions(result: unknown, toolInput: Record<string, unknown>): boolean {
  const texts = (value: unknown) =>
    Array.isArray(value) ? value.map((question: unknown) => (isRecord(question) ? question.question : undefined)) : [];
  if (!isRecord(result)) return false;
  const asked = texts(toolInput.questions);
  return asked.length > 0 && isDeepStrictEqual(texts(result.questions), asked);
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

// What the bridge keeps of an OpenCode request while it becomes a card (R12.19): the fields to-interaction.ts
// reads, each cut past what a card shows of it, as strings of their own. A request may be megabytes (a 15 MiB
// diff, a tool's whole output beside it), and a hundred wait for their session's chain at once.
import { APPROVAL_DIFF_MAX, ASK_USER_QUESTION_MAX_TEXT, ID_MAX } from '../../../contracts';
import { type OpenCodePermissionRequest, type OpenCodeQuestionRequest } from './opencode-shapes';

/** Characters kept of a question request, of a tool's metadata, and of any one text of a question. */
const QUESTION_KEPT_CHARS = 256 * 1024;
const TOOL_INPUT_KEPT_CHARS = 20_001;
const QUESTION_TEXT_KEPT = 10_001;
/** Items kept of any list: the card shows 50 patterns at most, and a question a few options. */
const ITEMS_KEPT = 100;

/** `text` cut to `max`, as a string of its own: a slice would keep the whole original alive. */
function own(text: string, max: number): string {
  return text.length > max ? Buffer.from(text.slice(0, max), 'utf16le').toString('utf16le') : text;
}

/**
 * A copy of a JSON value of at most `budget` characters, in the order JSON.stringify writes it (so a cut of
 * its text reads the same), every list and object cut to ITEMS_KEPT and every string to `textMax`.
 */
function keptJson(value: unknown, budget: { left: number }, textMax: number): unknown {
  budget.left -= 2;
  if (typeof value === 'string') {
    const kept = own(value, Math.max(0, Math.min(textMax, budget.left)));
    budget.left -= kept.length;
    return kept;
  }
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const item of value.slice(0, ITEMS_KEPT)) {
      if (budget.left <= 0) break;
      items.push(keptJson(item, budget, textMax));
    }
    return items;
  }
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value).slice(0, ITEMS_KEPT)) {
    if (budget.left <= 0) break;
    budget.left -= key.length;
    copy[own(key, textMax)] = keptJson(item, budget, textMax);
  }
  return copy;
}

const stringOf = (metadata: Record<string, unknown>, key: string, max: number) => {
  const value = metadata[key];
  return typeof value === 'string' ? { [key]: own(value, max) } : {};
};

const toolRef = (tool: OpenCodePermissionRequest['tool']) =>
  tool
    ? {
        tool: {
          ...(typeof tool.messageID === 'string' ? { messageID: own(tool.messageID, ID_MAX) } : {}),
          ...(typeof tool.callID === 'string' ? { callID: own(tool.callID, ID_MAX) } : {}),
        },
      }
    : {};

/** A permission request as to-interaction.ts reads it: a command, a file change's path and diff, or a tool's input. */
export function keptPermission(request: OpenCodePermissionRequest): OpenCodePermissionRequest {
  const { metadata } = request;
  const kept =
    request.permission === 'bash'
      ? stringOf(metadata, 'command', 20_001)
      : request.permission === 'edit' && typeof metadata.filepath === 'string'
        ? { ...stringOf(metadata, 'filepath', 4_097), ...stringOf(metadata, 'diff', APPROVAL_DIFF_MAX + 1) }
        : (keptJson(metadata, { left: TOOL_INPUT_KEPT_CHARS }, TOOL_INPUT_KEPT_CHARS) as Record<string, unknown>);
  return {
    id: request.id,
    sessionID: request.sessionID,
    permission: own(request.permission, ID_MAX + 1),
    patterns: request.patterns.slice(0, 50).map((pattern) => own(pattern, 2_001)),
    always: request.always.slice(0, 50).map((rule) => own(rule, 2_001)),
    metadata: kept,
    ...toolRef(request.tool),
  };
}

/**
 * A question request as to-interaction.ts reads it: its questions, texts and options, every field kept (so its
 * shape holds) but its texts within one budget: a request past it would have been too big to show anyway.
 */
export function keptQuestion(request: OpenCodeQuestionRequest): OpenCodeQuestionRequest {
  let left = QUESTION_KEPT_CHARS;
  const textMax = Math.max(QUESTION_TEXT_KEPT, ASK_USER_QUESTION_MAX_TEXT + 1);
  const text = (value: string) => {
    const kept = own(value, Math.max(0, Math.min(textMax, left)));
    left -= kept.length + 2;
    return kept;
  };
  return {
    id: request.id,
    sessionID: request.sessionID,
    questions: request.questions.slice(0, ITEMS_KEPT).map((question) => ({
      question: text(question.question),
      header: text(question.header),
      options: question.options
        .slice(0, ITEMS_KEPT)
        .map((option) => ({ label: text(option.label), description: text(option.description) })),
      ...(question.multiple === undefined ? {} : { multiple: question.multiple }),
      ...(question.custom === undefined ? {} : { custom: question.custom }),
    })),
    ...toolRef(request.tool),
  };
}

// How a Codex server request becomes an Askaway interaction (R18.2: to-interaction; R18.3–R18.5, R18.11, R18.12).
// Approvals are in approval-prompts.ts, MCP elicitations in elicitation-prompt.ts.
import { type InteractionContext } from '../../../contracts';
import { commandPrompt, fileChangePrompt, permissionsPrompt } from './approval-prompts';
import {
  contextOf,
  unreadable,
  type CodexPrompt,
  type CodexThreadContext,
  type PlannedQuestion,
  type Unsupported,
} from './codex-prompt';
import { elicitationPrompt } from './elicitation-prompt';
import {
  CODEX_PROMPT_METHODS,
  RequestUserInputParamsSchema,
  type FileUpdateChange,
  type UserInputQuestion,
} from './protocol';

export { commandChoices, fileChangesOf } from './approval-prompts';
export type {
  CodexAnswerPlan,
  CodexInteraction,
  CodexPrompt,
  CodexThreadContext,
  PlannedQuestion,
} from './codex-prompt';

/** The option Codex's terminal adds to every question that takes a typed answer (`isOther`). */
export const NONE_OF_THE_ABOVE = 'None of the above';
/** How long Codex 0.171 waits for a Default-mode (non-blocking) question before it goes on without an answer. */
export const CODEX_NON_BLOCKING_TIMEOUT_MS = 120_000;

/**
 * The note a card carries for a question Codex will not wait for (R18.11). Codex sends no deadline
 * (`autoResolutionMs` is null in 0.171): it is the bridge's, counted from when it saw the request arrive live,
 * and unknown for one re-sent when the bridge joined later.
 */
export function nonBlockingNote(askedAt: Date | undefined): string {
  return askedAt
    ? 'Codex is not waiting for this answer: about 2 minutes after it asked, it goes on without one.'
    : 'Codex is not waiting for this answer: about 2 minutes after it asked (before Askaway saw it), it goes on without one.';
}

function withAgentDeadline(context: InteractionContext | undefined, deadline: Date | undefined) {
  return deadline ? { ...context, agentDeadlineAt: deadline.toISOString() } : context;
}

function questionPrompt(
  params: unknown,
  thread: CodexThreadContext,
  askedAt: Date | undefined,
): CodexPrompt | Unsupported {
  const parsed = RequestUserInputParamsSchema.safeParse(params);
  if (!parsed.success) return unreadable('request_user_input', parsed.error.issues);
  const request = parsed.data;
  const used = new Set<string>();
  const planned: PlannedQuestion[] = [];
  const questions = request.questions.map((question: UserInputQuestion) => {
    let key = question.question;
    if (used.has(key)) key = `${key} (${question.id})`;
    used.add(key);
    const options = (question.options ?? []).map((option) => ({
      label: option.label,
      description: option.description,
    }));
    const freeform = options.length === 0;
    // The terminal lists "None of the above" with every question that takes a typed answer; a one-option
    // question keeps it as a second option the phone can pick without typing.
    if (options.length === 1 && question.isOther) options.push({ label: NONE_OF_THE_ABOVE, description: '' });
    planned.push({
      id: question.id,
      key,
      labels: options.map((option) => option.label),
      isOther: question.isOther,
      freeform,
    });
    return {
      question: key,
      header: question.header,
      ...(freeform ? { kind: 'text' as const } : { options }),
      multiSelect: false,
      ...(question.isSecret ? { secret: true } : {}),
      ...(question.isOther ? {} : { allowOther: false }),
    };
  });
  return {
    interaction: {
      kind: 'question',
      inputRules: 'agent',
      input: { questions },
      toolName: 'request_user_input',
      toolUseId: request.itemId,
      context: withAgentDeadline(
        contextOf(thread, request.isBlocking ? undefined : nonBlockingNote(askedAt)),
        !request.isBlocking && askedAt ? new Date(askedAt.getTime() + CODEX_NON_BLOCKING_TIMEOUT_MS) : undefined,
      ),
    },
    plan: { type: 'question', questions: planned },
    threadId: request.threadId,
    turnId: request.turnId,
    nonBlocking: !request.isBlocking,
  };
}

/**
 * The interaction for one server request, or why it stays in the terminal (an unknown method, a shape the
 * phone cannot show). `changes` are the file changes Codex announced for the item (`item/started`), since
 * its approval request carries no diff; `askedAt` is when the bridge saw the request arrive live.
 */
export function toCodexPrompt(
  method: string,
  params: unknown,
  thread: CodexThreadContext,
  options: { changes?: readonly FileUpdateChange[]; askedAt?: Date } = {},
): CodexPrompt | Unsupported {
  switch (method) {
    case CODEX_PROMPT_METHODS.question:
      return questionPrompt(params, thread, options.askedAt);
    case CODEX_PROMPT_METHODS.command:
      return commandPrompt(params, thread);
    case CODEX_PROMPT_METHODS.fileChange:
      return fileChangePrompt(params, thread, options.changes);
    case CODEX_PROMPT_METHODS.permissions:
      return permissionsPrompt(params, thread);
    case CODEX_PROMPT_METHODS.elicitation:
      return elicitationPrompt(params, thread);
    default:
      return { unsupported: `Codex's ${method} is not carried to the phone` };
  }
}

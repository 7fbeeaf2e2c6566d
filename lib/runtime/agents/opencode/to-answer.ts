// How the phone's answer goes back to OpenCode in its own format (R18.2: to-answer, R18.23, R18.24).
import { splitClaudeCodeLabels, type InteractionResponse } from '../../../contracts';

/** One HTTP call that answers a request, made through the plugin's client. */
export interface OpenCodeReply {
  url: string;
  body: unknown;
  /** For the log: what was answered, without the answers themselves (they may be secrets). */
  summary: string;
}

/** One answer as OpenCode takes it: the labels chosen (or the text typed), none for a skipped question. */
function answerOf(answer: string | undefined, multiple: boolean): string[] {
  if (answer === undefined || answer.trim() === '') return [];
  // The phone joins several labels as Claude Code does; OpenCode wants them apart (and joins them with ", ").
  return multiple ? (splitClaudeCodeLabels(answer) ?? [answer]) : [answer];
}

/**
 * A question's reply. Accept: the answers in OpenCode's positional form, `[]` for each question skipped
 * (auto-resolution's `answers: {}` too: the model reads "Unanswered" and carries on). Decline or cancel:
 * OpenCode's reject, which ends the turn (it takes no reason).
 */
export function questionReply(
  openCodeId: string,
  asked: { questions: readonly { question: string; multiSelect?: boolean }[] },
  multiple: readonly boolean[],
  response: InteractionResponse,
): OpenCodeReply {
  const id = encodeURIComponent(openCodeId);
  if (response.action !== 'accept') {
    return {
      url: `/question/${id}/reject`,
      body: {},
      summary: response.action === 'decline' ? 'declined' : 'cancelled',
    };
  }
  const answers = response.content?.answers ?? {};
  const replies = asked.questions.map((question, index) =>
    answerOf(answers[question.question], multiple[index] === true),
  );
  const answered = replies.filter((reply) => reply.length > 0).length;
  return {
    url: `/question/${id}/reply`,
    body: { answers: replies },
    summary: answered === 0 ? 'skipped' : `answered ${answered} of ${replies.length}`,
  };
}

/** The replies OpenCode's permission takes. */
export type PermissionReplyKind = 'once' | 'always' | 'reject';

/**
 * A permission's reply: the choice taken (`once`, `always`), or `reject`, with the person's reason when
 * they gave one (the model reads it and carries on; without one OpenCode ends the turn).
 */
export function permissionReply(openCodeId: string, response: InteractionResponse): OpenCodeReply {
  const url = `/permission/${encodeURIComponent(openCodeId)}/reply`;
  if (response.action === 'accept') {
    const reply: PermissionReplyKind = response.content?.choice === 'always' ? 'always' : 'once';
    return { url, body: { reply }, summary: reply };
  }
  const message = response.action === 'decline' ? response.message?.trim() : undefined;
  return message
    ? { url, body: { reply: 'reject', message }, summary: 'rejected with a reason' }
    : { url, body: { reply: 'reject' }, summary: 'rejected' };
}

import * as z from 'zod/mini';
import { FINISHED_TURN_ERROR_MAX, FINISHED_TURN_MESSAGE_MAX } from './limits';

export * from './finished-turn-words';

/**
 * How a turn ended (R19.1): `completed` (the agent answered and stopped), `interrupted` (Esc, an abort) or `failed`
 * (with the agent's error, when it gave one).
 */
export const FinishedTurnStatusSchema = z.enum(['completed', 'interrupted', 'failed']);
export type FinishedTurnStatus = z.infer<typeof FinishedTurnStatusSchema>;

/**
 * A finished turn's card (R19.1, R19.2). `reply`: `prompt` when a reply from the phone becomes the session's next
 * prompt, `none` where the agent's editor owns the prompt (ACP), so the card has no reply box and says why.
 * `clippedFrom`: the message was longer, this many characters, and was cut to FINISHED_TURN_MESSAGE_MAX.
 */
/**
 * Why a card takes no reply (`reply: 'none'`), for the line the card shows in place of the reply box: the agent's
 * editor owns the prompt (ACP, the default), the person is not away and Claude Code did not wait (R19.50), replies
 * are switched off for the agent (R19.53), the turn failed and the agent cannot be continued from it (R19.55), or
 * the agent takes no more replies in a row from here (Claude Code's cap on Stop hook continuations, R19.56).
 */
export const FinishedTurnNoReplySchema = z.enum(['editor', 'not-away', 'switched-off', 'turn-failed', 'reply-limit']);
export type FinishedTurnNoReply = z.infer<typeof FinishedTurnNoReplySchema>;

export const FinishedTurnInputSchema = z.strictObject({
  status: FinishedTurnStatusSchema,
  message: z.optional(z.string().check(z.maxLength(FINISHED_TURN_MESSAGE_MAX))),
  clippedFrom: z.optional(z.int().check(z.positive())),
  error: z.optional(z.string().check(z.maxLength(FINISHED_TURN_ERROR_MAX))),
  reply: z.enum(['prompt', 'none']),
  noReply: z.optional(FinishedTurnNoReplySchema),
});
export type FinishedTurnInput = z.infer<typeof FinishedTurnInputSchema>;

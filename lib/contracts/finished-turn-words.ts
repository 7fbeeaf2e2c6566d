// Zod-free, so the PWA's finished-turn card can compare a withdrawal's reason without loading the schemas.

/** The tool name every finished-turn interaction carries (R19.1): no agent's tool, the turn itself. */
export const FINISHED_TURN_TOOL_NAME = 'finished-turn';

/**
 * Why a reply from the phone was not sent (R19.6): the agent had started other work (a prompt typed at the terminal,
 * a newer turn) by the time it arrived, and a reply is never sent into a running turn. The phone keeps the reply to copy.
 */
export const FINISHED_TURN_BUSY_REASON = 'The agent is already working on something else';
/** A prompt typed at the agent's terminal answered the finished turn first (R19.5). */
export const FINISHED_TURN_TERMINAL_REASON = 'Answered in the terminal';
/** The same where an editor owns the prompt (ACP): the editor sent the session's next prompt first (R19.5). */
export const FINISHED_TURN_EDITOR_REASON = 'Answered in the editor';
/** Why a session's older finished-turn card leaves when a newer turn of that session finishes (R19.3). */
export const NEWER_TURN_REASON = 'A newer turn finished';

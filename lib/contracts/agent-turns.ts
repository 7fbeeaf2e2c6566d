// Zod-free, for the host's notification content and anything else that words a Deny by agent.
import { type AgentKind } from './agent-ref';

/**
 * Whether a Deny that reaches the agent without a reason ends the agent's turn (R14.8), as each agent's
 * `to-answer.ts` sends it and its page in docs/agents/ records: such a Deny is never a notification button,
 * since a choice that stops the agent's turn stays on the card. TypeScript insists on every kind.
 */
export const DENY_WITHOUT_REASON_ENDS_TURN: Readonly<Record<AgentKind, boolean>> = {
  // A hook's deny: the model reads the denial and goes on.
  'claude-code': false,
  // `decline`: the model reads "rejected by user" and goes on (Codex's `cancel`, which stops it, is no button).
  codex: false,
  // `reject` without a message: "nothing at once: the turn ends" (docs/agents/opencode.md).
  opencode: true,
  // `reject` without feedback: Copilot ends its turn (docs/agents/copilot.md).
  copilot: true,
  // Whatever agent is on the other end: Copilot's `reject_once` over ACP ends its turn without the model hearing
  // back (docs/agents/acp.md), and the host cannot tell one ACP agent's reject from another's.
  acp: true,
  // A decline is the tool call's result: the caller reads it and goes on.
  mcp: false,
  ask: false,
  demo: false,
};

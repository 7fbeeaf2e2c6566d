import * as z from 'zod/mini';
import { type AgentKind } from './agent-ref';

export { agentKey, type AgentKind } from './agent-ref';
export { AGENT_NAMES, agentOf, type AgentEvidence } from './agent-of';

const AGENT_KINDS = [
  'claude-code',
  'codex',
  'opencode',
  'copilot',
  'acp',
  'mcp',
  'ask',
  'demo',
] as const satisfies readonly AgentKind[];

/** Which kind of agent asked (R18.1). */
export const AgentKindSchema = z.enum(AGENT_KINDS);

/**
 * The agent an interaction came from (R18.1), as its runtime says: unlike the machine, nothing rides on
 * it but what the phone shows. The session or thread is the interaction's `sessionId`, the working
 * directory its `context.cwd`.
 */
export const AgentRefSchema = z.strictObject({
  kind: AgentKindSchema,
  /** What the phone calls it: "Codex", or an MCP client's own name. */
  name: z.string().check(z.minLength(1), z.maxLength(80)),
  version: z.optional(z.string().check(z.maxLength(80))),
});
export type AgentRef = z.infer<typeof AgentRefSchema>;

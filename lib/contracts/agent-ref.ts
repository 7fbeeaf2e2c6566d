// Zod-free, so the first screen (chips, filters) and the service worker can name an agent without the schemas.

/**
 * Which kind of agent asked (R18.1). An MCP client's own name is the `name` of an `mcp` agent, an ACP agent's
 * (Gemini CLI, Copilot, …, through `askaway acp`) the `name` of an `acp` one.
 */
export type AgentKind = 'claude-code' | 'codex' | 'opencode' | 'copilot' | 'acp' | 'mcp' | 'ask' | 'demo';

/** The agent an interaction came from: its kind, the name the phone shows, and its version when known. */
export interface AgentRefLike {
  kind: AgentKind;
  name: string;
  version?: string;
}

/** One key per agent for filters and grouping: the kind, and for MCP clients their name too. */
export function agentKey(agent: AgentRefLike): string {
  return agent.kind === 'mcp' || agent.kind === 'acp' ? `${agent.kind}:${agent.name}` : agent.kind;
}

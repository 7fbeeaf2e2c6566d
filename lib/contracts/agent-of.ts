// Zod-free, for the host and the runtimes: the phone reads the agent the host recorded and never infers it.
import { type AgentKind, type AgentRefLike } from './agent-ref';

/** The name each kind goes by, unless the agent names itself (an MCP client does). */
export const AGENT_NAMES: Record<AgentKind, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  opencode: 'OpenCode',
  copilot: 'GitHub Copilot',
  acp: 'ACP agent',
  mcp: 'MCP client',
  ask: 'askaway ask',
  demo: 'Demo agent',
};

/** What an interaction says about who asked; older ones carry no `agent`. */
export interface AgentEvidence {
  agent?: AgentRefLike;
  toolName: string;
  kind: string;
  inputRules?: string;
  origin?: { client?: { name: string; version?: string } };
}

/**
 * The agent that asked (R18.1). An interaction logged before agents were recorded is Claude Code's when
 * its tool name says so (a plan approval, a permission prompt, or a question under Claude Code's own rules
 * came through its hooks), else an MCP client's, named as it named itself.
 */
export function agentOf(view: AgentEvidence): AgentRefLike {
  if (view.agent) return view.agent;
  const client = view.origin?.client;
  if (view.inputRules === 'claude-code' || view.kind === 'plan-approval' || view.kind === 'permission')
    return { kind: 'claude-code', name: AGENT_NAMES['claude-code'] };
  return client
    ? { kind: 'mcp', name: client.name, ...(client.version !== undefined ? { version: client.version } : {}) }
    : { kind: 'mcp', name: AGENT_NAMES.mcp };
}

import { machineNameFrom } from '../../contracts';
import { type FollowOptions } from '../../runtime/agents/claude-code/follow-transcript';
import { type HookDeadline } from '../../runtime/agents/claude-code/handle-hook';
import { type Host } from '../create-host';
import { HOST_VERSION } from '../version';
import { CLAUDE_CODE_HOOK_PATH, createClaudeCodeHookHandler } from './claude-code-http';
import { createMcpHttpBridge, MCP_HTTP_PATH } from './mcp-http';
import { runtimesByMachine } from './runtime-for';

export { CLAUDE_CODE_HOOK_PATH } from './claude-code-http';
export { MCP_HTTP_PATH } from './mcp-http';

export interface AgentBridges {
  /** Unmounts the routes and ends their sessions, withdrawing questions still waiting. */
  close(): Promise<void>;
}

/**
 * Mounts the agent bridges on a running host (R11.1, R11.2): MCP streamable HTTP
 * at `/mcp` and Claude Code's HTTP hook at `/hooks/claude-code`. They reach the host through its own '/runtime' namespace (loopback
 * URL and token), exactly like an external runtime; a joined machine's call goes through a connection made with that
 * machine's own credential (R17.3).
 */
export function mountAgentBridges(
  host: Host,
  options: { log?: (line: string) => void; hookDeadline?: HookDeadline; hookFollow?: FollowOptions } = {},
): AgentBridges {
  const runtimes = runtimesByMachine({ url: host.url, agentToken: host.token, insecureTls: host.secure });
  const stopForgetting = host.machines.onRevoked((machineId) => void runtimes.forget(machineId));
  const mcp = createMcpHttpBridge({ runtimeFor: runtimes.runtimeFor, version: HOST_VERSION });
  const unmount = [
    host.registerHttpRoute('*', MCP_HTTP_PATH, mcp.handler),
    host.registerHttpRoute(
      'POST',
      CLAUDE_CODE_HOOK_PATH,
      createClaudeCodeHookHandler({
        runtimeFor: runtimes.runtimeFor,
        log: options.log,
        deadline: options.hookDeadline,
        follow: options.hookFollow,
        localMachineName: machineNameFrom(host.hostName),
      }),
    ),
  ];
  return {
    async close() {
      for (const remove of unmount) remove();
      stopForgetting();
      await mcp.close();
      await runtimes.close();
    },
  };
}

import { type FollowOptions } from '../../runtime/claude-code/follow-transcript';
import { type HookDeadline } from '../../runtime/claude-code/handle-hook';
import { runtimeClientProvider } from '../../runtime/runtime-client-provider';
import { type Host } from '../create-host';
import { HOST_VERSION } from '../version';
import { CLAUDE_CODE_HOOK_PATH, createClaudeCodeHookHandler } from './claude-code-http';
import { createMcpHttpBridge, MCP_HTTP_PATH } from './mcp-http';

export { CLAUDE_CODE_HOOK_PATH } from './claude-code-http';
export { MCP_HTTP_PATH } from './mcp-http';

export interface AgentBridges {
  /** Unmounts the routes and ends their sessions, withdrawing questions still waiting. */
  close(): Promise<void>;
}

/**
 * Mounts the agent bridges on a running host (R11.1, R11.2): MCP streamable HTTP
 * at `/mcp` and Claude Code's HTTP hook at `/hooks/claude-code`. They reach the host through its own '/runtime' namespace (loopback
 * URL and token), exactly like an external runtime.
 */
export function mountAgentBridges(
  host: Host,
  options: { log?: (line: string) => void; hookDeadline?: HookDeadline; hookFollow?: FollowOptions } = {},
): AgentBridges {
  const runtime = runtimeClientProvider({
    url: host.url,
    token: host.token,
    insecureTls: host.secure,
    runtimeId: 'host-bridges',
  });
  const mcp = createMcpHttpBridge({ runtime, version: HOST_VERSION });
  const unmount = [
    host.registerHttpRoute('*', MCP_HTTP_PATH, mcp.handler),
    host.registerHttpRoute(
      'POST',
      CLAUDE_CODE_HOOK_PATH,
      createClaudeCodeHookHandler({
        runtime,
        log: options.log,
        deadline: options.hookDeadline,
        follow: options.hookFollow,
      }),
    ),
  ];
  return {
    async close() {
      for (const remove of unmount) remove();
      await mcp.close();
      await runtime.close();
    },
  };
}

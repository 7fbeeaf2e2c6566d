import { runtimeClientProvider } from '../../runtime/runtime-client-provider';
import { type Host } from '../create-host';
import { HOST_VERSION } from '../version';
import { createMcpHttpBridge, MCP_HTTP_PATH } from './mcp-http';

export { MCP_HTTP_PATH } from './mcp-http';

export interface AgentBridges {
  /** Unmounts the routes and ends their sessions, withdrawing questions still waiting. */
  close(): Promise<void>;
}

/**
 * Mounts the agent bridges on a running host (R11.1, R11.2): MCP streamable HTTP
 * at `/mcp`. They reach the host through its own '/runtime' namespace (loopback
 * URL and token), exactly like an external runtime.
 */
export function mountAgentBridges(host: Host): AgentBridges {
  const runtime = runtimeClientProvider({ url: host.url, token: host.token, insecureTls: host.secure, runtimeId: 'host-bridges' });
  const mcp = createMcpHttpBridge({ runtime, version: HOST_VERSION });
  const unmount = [host.registerHttpRoute('*', MCP_HTTP_PATH, mcp.handler)];
  return {
    async close() {
      for (const remove of unmount) remove();
      await mcp.close();
      await runtime.close();
    },
  };
}

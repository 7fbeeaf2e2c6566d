import { machineNameFrom } from '../contracts';
import { type HubContribution, type HubServices } from '../runtime/hub-contribution';
import { type Host } from '../host/create-host';
import { HOST_VERSION } from '../host/version';
import { runBridgesWhileLeading } from './leader-bridges';
import { createMcpHttpBridge, MCP_HTTP_PATH } from './mcp-http';
import { runtimesByMachine } from './runtime-for';

export { MCP_HTTP_PATH } from './mcp-http';

export interface AgentBridges {
  /** Unmounts the routes, stops the agents' bridges and ends their sessions, withdrawing questions still waiting. */
  close(): Promise<void>;
}

/**
 * Mounts the agent bridges on a running host (R11.1, R18.29): MCP streamable HTTP at `/mcp`, then what each
 * agent contributes (its routes, e.g. Claude Code's HTTP hook, then the bridges it starts, e.g. Codex's). They
 * reach the host through its own '/runtime' namespace (loopback URL and token), exactly like an external
 * runtime; a joined machine's call goes through a connection made with that machine's own credential (R17.3).
 */
export function mountAgentBridges(
  host: Host,
  options: { contributions?: readonly HubContribution[]; log?: (line: string) => void } = {},
): AgentBridges {
  const runtimes = runtimesByMachine({ url: host.url, agentToken: host.token, insecureTls: host.secure });
  const stopForgetting = host.machines.onRevoked((machineId) => void runtimes.forget(machineId));
  const mcp = createMcpHttpBridge({ runtimeFor: runtimes.runtimeFor, version: HOST_VERSION });
  const services: HubServices = {
    url: host.url,
    token: host.token,
    insecureTls: host.secure,
    dataDir: host.dataDir,
    localMachineName: machineNameFrom(host.hostName),
    runtimeFor: runtimes.runtimeFor,
    log: options.log ?? (() => undefined),
  };
  const contributions = options.contributions ?? [];
  const unmount = [
    host.registerHttpRoute('*', MCP_HTTP_PATH, mcp.handler),
    ...contributions.flatMap((contribution) =>
      (contribution.routes?.(services) ?? []).map((route) =>
        host.registerHttpRoute(route.method, route.path, route.handler),
      ),
    ),
  ];
  const bridges = runBridgesWhileLeading(host.leadership, contributions, services);
  return {
    async close() {
      for (const remove of unmount) remove();
      stopForgetting();
      await Promise.allSettled([mcp.close(), bridges.close()]);
      await runtimes.close();
    },
  };
}

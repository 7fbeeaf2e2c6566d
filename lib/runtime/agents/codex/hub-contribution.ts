import { existsSync } from 'node:fs';
import { type HubBridge, type HubContribution, type HubServices } from '../../hub-contribution';
import { runtimeClientProvider } from '../../runtime-client-provider';
import { startCodexBridge } from './bridge';
import { readBridgeStatuses, type BridgeHomeStatus } from './bridge-status';
import { defaultCodexHome } from './codex-home';

/**
 * What the hub runs and reports for Codex: the Codex bridge for `homes` (R18.14; none with `--no-codex`), so
 * Codex's prompts reach the phone with nothing else to start, and its lines in `askaway status`.
 */
export function codexHubContribution(options: { homes: readonly string[] }): HubContribution {
  // It waits for a Codex daemon and never starts one; it reaches the host over loopback like any runtime.
  const start = (hub: HubServices): HubBridge => {
    const provider = runtimeClientProvider({ url: hub.url, token: hub.token, insecureTls: hub.insecureTls });
    const bridge = startCodexBridge({
      homes: options.homes,
      runtime: () => provider.get('codex bridge'),
      dataDir: hub.dataDir,
      owner: 'askaway start',
      log: hub.log,
    });
    hub.log(`Codex bridge: watching ${options.homes.join(', ')} for a Codex daemon (--no-codex turns it off).`);
    return {
      async stop() {
        await bridge.stop();
        await provider.close();
      },
    };
  };
  return {
    agent: 'codex',
    ...(options.homes.length > 0 ? { start } : {}),
    status: (env, dataDir) => {
      const bridges = readBridgeStatuses(dataDir);
      // This machine's default Codex home, when it exists (then "no bridge runs here" is worth saying).
      const codexHome = existsSync(defaultCodexHome(env)) ? defaultCodexHome(env) : undefined;
      return {
        json: { codex: bridges, ...(codexHome !== undefined ? { codexHome } : {}) },
        lines: formatCodexBridges(bridges, codexHome),
      };
    },
  };
}

/** One line per Codex home a bridge serves, or the one line saying none runs. */
function formatCodexBridges(bridges: readonly BridgeHomeStatus[], codexHome?: string): string[] {
  if (bridges.length === 0)
    return codexHome === undefined
      ? []
      : [
          `Codex:      no bridge runs for ${codexHome} (\`askaway start\` runs one; on a joined machine, \`askaway codex\`)`,
        ];
  return bridges.map((bridge) => {
    const by = `${bridge.owner}, pid ${bridge.pid}`;
    if (bridge.state !== 'attached')
      return `Codex:      ${bridge.codexHome}: not attached — ${bridge.detail ?? bridge.state} (${by})`;
    const threads = `${bridge.threads} thread${bridge.threads === 1 ? '' : 's'}`;
    const waiting = bridge.pending > 0 ? `, ${bridge.pending} waiting on the phone` : '';
    return `Codex:      ${bridge.codexHome}: attached to the daemon${bridge.daemonPid ? ` (pid ${bridge.daemonPid})` : ''}, ${threads}${waiting} (${by})`;
  });
}

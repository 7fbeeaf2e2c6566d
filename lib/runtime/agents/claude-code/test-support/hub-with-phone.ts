import { hubContributions } from '../../../../../bin/commands/hub-contributions';
import { type Host } from '../../../../host';
import { mountAgentBridges } from '../../../../host/bridges';
import { pairDevice } from '../../../../host/test-support/devices';
import { startTestHost, tempDir } from '../../../../host/test-support/test-host';
import { connectScriptedRemote, type ScriptedRemote } from '../../../test-support/scripted-remote';

/**
 * A hub with the agents' bridges mounted (Claude Code's hook route among them) whose log lines the test reads,
 * a phone on it, and a fresh folder (`dirPrefix`) for the files a hook names. Closing them goes on `cleanups`;
 * the host closes with closeAllHosts.
 */
export async function hubWithPhone(
  cleanups: { push(cleanup: () => Promise<void> | void): unknown },
  dirPrefix: string,
): Promise<{ host: Host; phone: ScriptedRemote; lines: string[]; dir: string }> {
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);
  const host = await startTestHost({ log });
  const bridges = mountAgentBridges(host, { contributions: hubContributions({ codexHomes: [] }), log });
  cleanups.push(() => bridges.close());
  const phone = await connectScriptedRemote(host.url, pairDevice(host).credential);
  cleanups.push(() => phone.close());
  return { host, phone, lines, dir: tempDir(dirPrefix) };
}

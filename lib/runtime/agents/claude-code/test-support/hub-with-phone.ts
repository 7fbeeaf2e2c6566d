import { hubContributions } from '../../../../../bin/commands/hub-contributions';
import { type Host } from '../../../../host';
import { mountAgentBridges } from '../../../../bridges';
import { pairDevice } from '../../../../host/test-support/devices';
import { closeAllHosts, startTestHost, tempDir } from '../../../../host/test-support/test-host';
import { connectScriptedRemote, type ScriptedRemote } from '../../../test-support/scripted-remote';
import { type SpecialFile } from '../../../test-support/special-files';

/** Special files a test made: removed first on close, to wake whatever is left blocked on a FIFO. */
export const specials: SpecialFile[] = [];
/** What a test opened, undone newest first on close. */
export const cleanups: (() => Promise<void> | void)[] = [];

/** For afterEach: removes the special files, undoes the cleanups, closes the hosts. */
export async function closeHubWithPhone(): Promise<void> {
  // First wake whatever the old code left blocked on a FIFO, so no thread of the pool stays taken.
  for (const special of specials.splice(0)) special.remove();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await closeAllHosts();
}

/**
 * A hub with the agents' bridges mounted (Claude Code's hook route among them) whose log lines the test reads,
 * a phone on it, and a fresh folder (`dirPrefix`) for the files a hook names; closeHubWithPhone closes them.
 */
export async function hubWithPhone(
  dirPrefix: string,
): Promise<{ host: Host; phone: ScriptedRemote; lines: string[]; dir: string }> {
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);
  const host = await startTestHost({ log });
  const bridges = mountAgentBridges(host, { contributions: hubContributions({ codexHomes: [] }), log });
  cleanups.push(() => bridges.close());
  const phone = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
  cleanups.push(() => phone.close());
  return { host, phone, lines, dir: tempDir(dirPrefix) };
}

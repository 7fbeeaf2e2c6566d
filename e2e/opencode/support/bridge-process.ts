import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type OpenCodeLab } from './opencode-lab';

/**
 * The `askaway opencode bridge` processes OpenCode started in `lab`: node processes running `opencode bridge` whose
 * environment names this lab's bridge log, so no other test's (or engineer's) bridge is ever touched.
 */
export function bridgePids(lab: OpenCodeLab): number[] {
  const mark = `ASKAWAY_OPENCODE_LOG=${path.join(lab.root, 'bridge.log')}`;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (!path.basename(argv[0] ?? '').startsWith('node') || argv.at(-3) !== 'opencode' || argv.at(-2) !== 'bridge')
        continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(mark)) pids.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids;
}

/** Runs `work` while the lab's bridge hears nothing (SIGSTOP), then lets it read what came meanwhile (SIGCONT). */
export async function withBridgePaused<T>(lab: OpenCodeLab, work: () => Promise<T>): Promise<T> {
  const pids = bridgePids(lab);
  if (pids.length !== 1) throw new Error(`expected one bridge of the lab, found ${pids.length}`);
  const [pid] = pids as [number];
  process.kill(pid, 'SIGSTOP');
  try {
    return await work();
  } finally {
    process.kill(pid, 'SIGCONT');
  }
}

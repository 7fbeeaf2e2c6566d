import { readFileSync } from 'node:fs';
import { isRecord } from '../contracts';

/**
 * Whether a process with this pid runs (signal 0 checks without sending anything). A process that outlives its
 * parent (a Codex daemon, a host whose terminal closed) lingers as a zombie where nothing reaps orphans (some
 * containers' PID 1): Linux reports that in /proc, and a zombie does not count.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, it just is not ours.
    return isRecord(error) && error.code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

/** What the figures of a run beside a busy neighbour are called after, so results.json keeps both. */
export const BESIDE_NEIGHBOUR = 'beside a CPU-bound neighbour on one core';

/**
 * A second busy process, as on a shared machine or a phone doing other work (issue 40 §2): one Node loop that never
 * yields, pinned to core 0 with `taskset` where there is one (else left to the scheduler, and the note says so).
 * Returns how to stop it and the words for a figure's note.
 */
export function startBusyNeighbour(): { stop(): void; note: string } {
  const loop = ['-e', 'for (;;) {}'];
  const pinned = spawnSync('taskset', ['--version']).status === 0;
  const child: ChildProcess = pinned
    ? spawn('taskset', ['-c', '0', process.execPath, ...loop], { stdio: 'ignore' })
    : spawn(process.execPath, loop, { stdio: 'ignore' });
  return {
    stop: () => {
      child.kill('SIGKILL');
    },
    note: pinned
      ? 'a busy loop pinned to core 0 (taskset) ran throughout'
      : 'a busy loop (no taskset: not pinned) ran throughout',
  };
}

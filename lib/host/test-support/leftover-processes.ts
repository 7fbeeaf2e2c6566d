// Every process a test run starts carries the run's mark in its environment, so that at the end the run can
// find what outlived it: a host, an agent's TUI or daemon, a tmux server, a browser. A process whose parent
// died is re-parented away from the runner, so the process tree cannot tell; the environment can, since
// children inherit it (the agents' suites, which give agents an environment of their own, add the mark with
// `testRunEnv()`).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';

export const TEST_RUN_ENV = 'ASKAWAY_TEST_RUN';

export interface LeftoverProcess {
  pid: number;
  command: string;
}

/** Marks this process's environment (and so every child's) with a new run id; returns it. */
export function markTestRun(): string {
  const id = `${process.pid}-${randomUUID().slice(0, 8)}`;
  process.env[TEST_RUN_ENV] = id;
  return id;
}

/** The mark to add to an environment built from scratch, or nothing outside a marked run. */
export function testRunEnv(): Record<string, string> {
  const id = process.env[TEST_RUN_ENV];
  return id ? { [TEST_RUN_ENV]: id } : {};
}

function readProc(pid: string, file: string): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return null;
  }
}

/** `/proc/<pid>/stat`'s state and parent: the command name may hold spaces and parentheses, so read after the last ')'. */
function statOf(pid: string): { state: string; parent: number } | null {
  const stat = readProc(pid, 'stat');
  if (stat === null) return null;
  const [state = '', parent = '0'] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state, parent: Number(parent) };
}

/** This process and its ancestors: the runner itself carries the mark and is no leftover. */
function runnerChain(): Set<number> {
  const chain = new Set<number>();
  let pid = process.pid;
  while (pid > 1 && !chain.has(pid)) {
    chain.add(pid);
    pid = statOf(String(pid))?.parent ?? 0;
  }
  return chain;
}

/** Live processes (not zombies) marked with `id`, apart from the runner's own chain. Linux only: elsewhere none. */
export function markedProcesses(id: string): LeftoverProcess[] {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const chain = runnerChain();
  const needle = `${TEST_RUN_ENV}=${id}`;
  const found: LeftoverProcess[] = [];
  for (const pid of pids) {
    if (chain.has(Number(pid))) continue;
    const environ = readProc(pid, 'environ');
    if (environ === null || !environ.split('\0').includes(needle)) continue;
    const stat = statOf(pid);
    if (stat === null || stat.state === 'Z' || stat.state === 'X') continue;
    const command = (readProc(pid, 'cmdline') ?? '').split('\0').join(' ').trim().slice(0, 200);
    found.push({ pid: Number(pid), command });
  }
  return found;
}

/**
 * Waits up to `graceMs` for the run's processes to end (some stop a moment after their parent), then kills
 * what is left and returns it: the caller fails the run with the list, and nothing outlives it either way.
 */
export async function reapLeftovers(id: string, graceMs = 5_000): Promise<LeftoverProcess[]> {
  const deadline = Date.now() + graceMs;
  let left = markedProcesses(id);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = markedProcesses(id);
  }
  for (const leftover of left) {
    try {
      process.kill(leftover.pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  return left;
}

export function describeLeftovers(leftovers: LeftoverProcess[]): string {
  return leftovers.map((leftover) => `  pid ${leftover.pid}: ${leftover.command}`).join('\n');
}

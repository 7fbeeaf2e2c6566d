import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { processAlive as alive } from '../../process-alive';

/** Shells Claude Code may run a hook command through: the agent is their parent. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'fish', 'ksh']);
/** How often the agent is looked for while a finished turn's hook holds its card. */
export const AGENT_POLL_MS = 2_000;

interface ProcessInfo {
  ppid: number;
  name: string;
}

/** A process's parent and name: /proc on Linux, `ps` elsewhere (macOS); undefined when it is gone. */
async function processInfo(pid: number): Promise<ProcessInfo | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // "pid (name) state ppid …": the name may hold spaces and parentheses, so read from the last ")".
    const close = stat.lastIndexOf(')');
    const name = stat.slice(stat.indexOf('(') + 1, close);
    const ppid = Number(stat.slice(close + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? { ppid, name } : undefined;
  } catch {
    try {
      const { stdout } = await promisify(execFile)('ps', ['-o', 'ppid=,comm=', '-p', String(pid)]);
      const match = /^\s*(\d+)\s+(.+?)\s*$/.exec(stdout);
      return match ? { ppid: Number(match[1]), name: (match[2] ?? '').split('/').pop() ?? '' } : undefined;
    } catch {
      return undefined;
    }
  }
}

/**
 * Calls `gone` once the Claude Code process that started this hook has exited. Claude Code leaves a background
 * (`async`) hook running when it exits, and a SIGKILLed one leaves any hook (2.1.332): the card it holds would stay
 * on the phone until the hook's day-long timeout. The agent is this process's parent, or the shell's between them.
 * Returns how to stop watching; does nothing where the parent cannot be found.
 */
export function watchAgentProcess(gone: () => void, everyMs = AGENT_POLL_MS): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  void (async () => {
    const parent = process.ppid;
    const info = await processInfo(parent);
    const agent = info && SHELLS.has(info.name) && info.ppid > 1 ? info.ppid : parent;
    if (stopped || agent <= 1) return;
    timer = setInterval(() => {
      if (alive(agent)) return;
      clearInterval(timer);
      if (!stopped) gone();
    }, everyMs);
    timer.unref();
  })();
  return () => {
    stopped = true;
    if (timer) clearInterval(timer);
  };
}

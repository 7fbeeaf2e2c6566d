// Which process is at the other end of the bridge's connection to Copilot's port (R12.22). Copilot 1.0.102's
// `--ui-server` port has no authentication, and `askaway copilot` can only tell it a port number: between the
// moment a free one is found and Copilot binding it (about 3 s), any local process can bind it first (Copilot
// then runs its TUI without a server, saying nothing). So before the bridge sends or relays anything, it checks
// that the socket at the far end of its connection belongs to the Copilot it started or one of its descendants
// (npm's `copilot` is a loader that starts the native binary as its child). Linux: /proc/net/tcp gives that
// socket's inode, /proc/<pid>/fd who holds it. Elsewhere: `lsof` names the processes on the connection's port.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';

/**
 * How long the accepted socket may take to show up in Copilot's file table: it accepts within milliseconds, but
 * a TUI starting up on a busy machine may hold its event loop for seconds. A socket held by another process fails
 * at once; only one not placed yet is waited for.
 */
export const PEER_CHECK_TIMEOUT_MS = 10_000;
const PEER_CHECK_RETRY_MS = 50;

/** The `pid` and every process below it, from each process's parent in /proc/<pid>/stat. */
async function linuxTree(root: number): Promise<Set<number>> {
  const children = new Map<number, number[]>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree = new Set<number>([root]);
  for (const pid of tree) for (const child of children.get(pid) ?? []) tree.add(child);
  return tree;
}

/** The inode of the socket at 127.0.0.1:`serverPort` connected to `clientPort` (0 until it is accepted). */
async function acceptedSocketInode(serverPort: number, clientPort: number): Promise<string | undefined> {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = await readFile(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [local, remote, state, inode] = [fields[1], fields[2], fields[3], fields[9]];
      // State 01: established. Loopback only: the bridge connects to 127.0.0.1.
      if (state !== '01' || !local?.endsWith(`:${hex(serverPort)}`) || !remote?.endsWith(`:${hex(clientPort)}`))
        continue;
      if (inode && inode !== '0') return inode;
    }
  }
  return undefined;
}

async function holdsSocket(pid: number, inode: string): Promise<boolean> {
  let fds: string[];
  try {
    fds = await readdir(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  for (const fd of fds) {
    try {
      if ((await readlink(`/proc/${pid}/fd/${fd}`)) === `socket:[${inode}]`) return true;
    } catch {
      // closed meanwhile
    }
  }
  return false;
}

/** Linux: true when a process of `root`'s tree holds the far end of the connection. */
async function linuxOwnsPeer(root: number, serverPort: number, clientPort: number): Promise<boolean | undefined> {
  const inode = await acceptedSocketInode(serverPort, clientPort);
  if (inode === undefined) return undefined;
  for (const pid of await linuxTree(root)) if (await holdsSocket(pid, inode)) return true;
  return false;
}

const run = (command: string, args: string[]) =>
  new Promise<string>((resolve, reject) =>
    execFile(command, args, { timeout: 5_000, maxBuffer: 1024 * 1024 }, (error, stdout) =>
      error && !stdout ? reject(error) : resolve(stdout),
    ),
  );

/** Elsewhere (macOS): the processes `lsof` shows on the connection's client port, less this one, in `root`'s tree. */
async function lsofOwnsPeer(root: number, clientPort: number): Promise<boolean | undefined> {
  const pids = (await run('lsof', ['-nP', `-iTCP:${clientPort}`, '-sTCP:ESTABLISHED', '-Fp']))
    .split('\n')
    .filter((line) => line.startsWith('p'))
    .map((line) => Number(line.slice(1)))
    .filter((pid) => pid !== process.pid);
  if (pids.length === 0) return undefined;
  const parents = new Map<number, number>();
  for (const line of (await run('ps', ['-A', '-o', 'pid=,ppid='])).split('\n')) {
    const [pid, parent] = line.trim().split(/\s+/).map(Number);
    if (pid !== undefined && parent !== undefined) parents.set(pid, parent);
  }
  const inTree = (pid: number) => {
    for (let at: number | undefined = pid, steps = 0; at !== undefined && at > 1 && steps < 64; steps += 1) {
      if (at === root) return true;
      at = parents.get(at);
    }
    return false;
  };
  return pids.every(inTree);
}

export interface PeerCheckOptions {
  /** Forces the lsof way (tests run it on Linux too). */
  useLsof?: boolean;
  timeoutMs?: number;
}

/**
 * A check for the bridge: given its connection's local port, undefined when the far end belongs to `copilotPid`'s
 * process tree, else why not. It fails closed: a peer it cannot place is not Copilot.
 */
export function copilotPeerCheck(
  copilotPid: number,
  port: number,
  options: PeerCheckOptions = {},
): (localPort: number) => Promise<string | undefined> {
  const useLsof = options.useLsof ?? !existsSync('/proc/net/tcp');
  return async (localPort) => {
    const deadline = Date.now() + (options.timeoutMs ?? PEER_CHECK_TIMEOUT_MS);
    for (;;) {
      let owns: boolean | undefined;
      try {
        owns = useLsof ? await lsofOwnsPeer(copilotPid, localPort) : await linuxOwnsPeer(copilotPid, port, localPort);
      } catch (error) {
        return `could not check which process holds port ${port} (${error instanceof Error ? error.message : String(error)})`;
      }
      if (owns === true) return undefined;
      if (owns === false)
        return `the process on port ${port} is not the Copilot this command started (pid ${copilotPid})`;
      if (Date.now() >= deadline)
        return `the process on port ${port} is not the Copilot this command started (pid ${copilotPid}): no process of its holds the connection`;
      await new Promise((resolve) => setTimeout(resolve, PEER_CHECK_RETRY_MS));
    }
  };
}

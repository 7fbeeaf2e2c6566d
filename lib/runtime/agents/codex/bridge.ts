// The Codex bridge (R18.10, R18.14): every Codex home it is told about, attached to its daemon, its
// prompts on the phone. It runs where Codex runs, as `askaway codex` or inside `askaway start`.
import { randomUUID } from 'node:crypto';
import { type RuntimeClient } from '../../runtime-broker';
import {
  BRIDGE_STATUS_HEARTBEAT_MS,
  otherBridgeFor,
  removeBridgeStatus,
  writeBridgeStatus,
  type BridgeHomeStatus,
} from './bridge-status';
import { uniqueHomes } from './codex-home';
import { HomeLink } from './home-link';

export interface CodexBridgeOptions {
  /** Codex homes to serve (`~/.codex`, CODEX_HOME, more with --codex-home). */
  homes: readonly string[];
  /** The runtime connection to the host (the machine's credential on a joined machine). */
  runtime: () => RuntimeClient;
  /** This machine's Askaway data dir: where `askaway status` finds the bridge, and the per-home lock. */
  dataDir: string;
  /** `askaway start` or `askaway codex`, for `askaway status`. */
  owner: string;
  log: (line: string) => void;
  /** How often to look for a daemon that does not run (default 1 s: a stat per home). */
  pollMs?: number;
  now?: () => number;
}

export interface CodexBridge {
  /** What each home's link says now (what the status files hold). */
  status(): BridgeHomeStatus[];
  /** Detaches from every daemon; pending cards leave the phone. */
  stop(): Promise<void>;
}

export function startCodexBridge(options: CodexBridgeOptions): CodexBridge {
  const now = options.now ?? Date.now;
  const bridgeId = randomUUID();
  const homes = uniqueHomes(options.homes);
  const deferred = new Set<string>();
  const links = new Map<string, HomeLink>();

  const statusOf = (link: HomeLink): BridgeHomeStatus => ({
    ...link.status(),
    bridgeId,
    pid: process.pid,
    owner: options.owner,
    updatedAt: new Date(now()).toISOString(),
  });

  let stopped = false;
  const write = (home: string) => {
    const link = links.get(home);
    if (!link || deferred.has(home) || stopped) return;
    try {
      writeBridgeStatus(options.dataDir, statusOf(link));
    } catch (error) {
      options.log(`codex: could not write the bridge status: ${String(error)}`);
    }
  };
  /**
   * Changes of one turn of the event loop make one write: a daemon answering a thousand thread joins at once
   * would otherwise cost a thousand synchronous file writes in a row (R12.19).
   */
  const scheduled = new Set<string>();
  const publish = (home: string) => {
    if (scheduled.has(home)) return;
    scheduled.add(home);
    setImmediate(() => {
      scheduled.delete(home);
      write(home);
    });
  };

  /** One bridge per home: a live one (another `askaway codex`, or `askaway start`) keeps it. */
  const checkOwners = () => {
    for (const [home, link] of links) {
      const other = otherBridgeFor(options.dataDir, home, bridgeId, now());
      const paused = other !== null;
      if (paused !== deferred.has(home)) {
        if (paused) {
          deferred.add(home);
          options.log(`codex ${home}: already bridged by ${other.owner} (pid ${other.pid}); staying away`);
        } else deferred.delete(home);
        link.setPaused(paused);
      }
      write(home);
    }
  };

  for (const home of homes) {
    const link = new HomeLink({
      codexHome: home,
      runtime: options.runtime,
      log: options.log,
      pollMs: options.pollMs ?? 1_000,
      onChange: () => publish(home),
      now,
    });
    links.set(home, link);
  }
  checkOwners();
  for (const link of links.values()) link.start();
  const heartbeat = setInterval(checkOwners, BRIDGE_STATUS_HEARTBEAT_MS);
  heartbeat.unref();

  return {
    status: () => [...links.values()].map(statusOf),
    async stop() {
      stopped = true;
      clearInterval(heartbeat);
      for (const [home, link] of links) {
        link.stop();
        if (!deferred.has(home)) removeBridgeStatus(options.dataDir, home, bridgeId);
      }
    },
  };
}

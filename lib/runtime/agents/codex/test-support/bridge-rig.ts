// A Codex bridge between a fake Codex daemon and a test host, with a phone watching: what the bridge's tests
// start each test with. What they start goes on the caller's `cleanups`, undone in its afterEach.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, vi } from 'vitest';
import { pairDevice } from '../../../../host/test-support/devices';
import { startTestHost, tempDir } from '../../../../host/test-support/test-host';
import { type Host, type HostOptions } from '../../../../host';
import { runtimeClientProvider, type RuntimeClientProvider } from '../../../runtime-client-provider';
import { startFakeCodexDaemon, type FakeCodexDaemon, type FakeThread } from '../../../test-support/fake-codex-daemon';
import { connectScriptedRemote, type ScriptedRemote } from '../../../test-support/scripted-remote';
import { startCodexBridge, type CodexBridge } from '../bridge';

export type Cleanups = { push(cleanup: () => Promise<void> | void): unknown };

export interface BridgeRig {
  host: Host;
  /** The host's own data dir: its log, tokens, host.json. */
  hostDir: string;
  daemon: FakeCodexDaemon;
  remote: ScriptedRemote;
  bridge: CodexBridge;
  dataDir: string;
  logs: string[];
}

/** A bridge for `daemon`'s home through `provider`, polling every 20 ms, its lines on `logs`. */
export function bridgeFor(
  cleanups: Cleanups,
  daemon: FakeCodexDaemon,
  provider: RuntimeClientProvider,
  dataDir: string,
  logs: string[],
  owner = 'test',
): CodexBridge {
  const bridge = startCodexBridge({
    homes: [daemon.codexHome],
    runtime: () => provider.get('codex bridge'),
    dataDir,
    owner,
    log: (line) => logs.push(line),
    pollMs: 20,
  });
  cleanups.push(() => bridge.stop());
  return bridge;
}

/** A host, a daemon with `threads` (`prepare` changes its home first), a paired phone and a bridge. */
export async function bridgeRig(
  cleanups: Cleanups,
  threads: FakeThread[],
  prepare?: (daemon: FakeCodexDaemon) => void,
  hostOptions: Partial<HostOptions> = {},
): Promise<BridgeRig> {
  const hostDir = tempDir();
  const host = await startTestHost({ dataDir: hostDir, ...hostOptions });
  const daemon = await startFakeCodexDaemon();
  cleanups.push(() => daemon.remove());
  prepare?.(daemon);
  for (const thread of threads) daemon.addThread(thread);
  const remote = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
  cleanups.push(() => remote.close());
  const provider = runtimeClientProvider({ url: host.url, token: host.token });
  cleanups.push(() => provider.close());
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'askaway-bridge-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const logs: string[] = [];
  const bridge = bridgeFor(cleanups, daemon, provider, dataDir, logs);
  return { host, hostDir, daemon, remote, bridge, dataDir, logs };
}

/** Waits until the bridge joined `count` threads (it sent a thread/resume the daemon answered). */
export async function bridgeJoined({ daemon, bridge }: Pick<BridgeRig, 'daemon' | 'bridge'>, count = 1) {
  await vi.waitFor(() => {
    expect(bridge.status()[0]).toMatchObject({ state: 'attached', threads: count });
    expect(daemon.clients()).toBe(1);
  });
}

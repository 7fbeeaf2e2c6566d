// A fake Codex daemon and a real `askaway start` whose Codex bridge serves its home (--codex-home, as CODEX_HOME
// would): the peer the Codex drills attack the host through.
import { readBridgeStatuses } from '../../lib/runtime/agents/codex/bridge-status';
import { startFakeCodexDaemon, type FakeCodexDaemon } from '../../lib/runtime/test-support/fake-codex-daemon';
import { until } from './drill-watch';
import { startHost, type HostProcess } from './host-process';

export interface CodexDaemonHost {
  daemon: FakeCodexDaemon;
  host: HostProcess;
  /** Waits until the bridge joined the thread. */
  joined(): Promise<void>;
  /** Prompts the bridge holds on the phone, as `askaway status` counts them. */
  held(): number;
  /** Stops the host, then removes the daemon. */
  stop(): Promise<void>;
}

/** Starts the daemon with `thread`, then the host (`extraArgs` before its --codex-home). */
export async function startCodexDaemonHost(
  thread: { id: string; cwd: string; name: string },
  extraArgs: string[] = [],
): Promise<CodexDaemonHost> {
  const daemon = await startFakeCodexDaemon();
  daemon.addThread(thread);
  const host = await startHost({
    extraArgs: [...extraArgs, '--codex-home', daemon.codexHome],
    env: { CODEX_HOME: daemon.codexHome },
  });
  return {
    daemon,
    host,
    joined: () =>
      until('the bridge joined the thread', () =>
        daemon.received.some((message) => message.method === 'thread/resume'),
      ),
    held: () => readBridgeStatuses(host.dataDir).reduce((sum, status) => sum + status.pending, 0),
    async stop() {
      await host.stop();
      await daemon.remove();
    },
  };
}

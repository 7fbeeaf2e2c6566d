import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { copilotPeerCheck } from './peer-process';
import { FakeCopilot } from './test-support/fake-copilot';

const FAKE_COPILOT = path.join(import.meta.dirname, 'test-support', 'fake-copilot-bin.mjs');
const children: ChildProcess[] = [];
const sockets: net.Socket[] = [];

afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** A process that listens on `port` (the stand-in Copilot), and a connection to it from this one. */
async function listenerAndConnection(): Promise<{ listener: ChildProcess; localPort: number; port: number }> {
  const port = await FakeCopilot.unusedPort();
  const listener = spawn(process.execPath, [FAKE_COPILOT, '--ui-server', '--port', String(port)], { stdio: 'ignore' });
  children.push(listener);
  const socket = await vi.waitFor(
    () =>
      new Promise<net.Socket>((resolve, reject) => {
        const attempt = net.connect({ host: '127.0.0.1', port }, () => resolve(attempt));
        attempt.once('error', reject);
      }),
    { timeout: 10_000, interval: 50 },
  );
  sockets.push(socket);
  return { listener, localPort: socket.localPort ?? 0, port };
}

/** Another process, as the Copilot this command started would be when someone else holds its port. */
function bystander(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  return child;
}

describe('[R12.22] the far end of the connection is the Copilot this command started', () => {
  for (const useLsof of [false, true])
    it(`[R12.22] ${useLsof ? 'lsof (macOS)' : '/proc (Linux)'}: the listener's process and its parents pass, another process does not`, async () => {
      const { listener, localPort, port } = await listenerAndConnection();
      const pid = listener.pid ?? 0;
      expect(await copilotPeerCheck(pid, port, { useLsof })(localPort)).toBeUndefined();
      // npm's `copilot` is a loader whose child listens: the loader's pid (here: this process) passes too.
      expect(await copilotPeerCheck(process.pid, port, { useLsof })(localPort)).toBeUndefined();
      const other = bystander().pid ?? 0;
      expect(await copilotPeerCheck(other, port, { useLsof, timeoutMs: 200 })(localPort)).toBe(
        `the process on port ${port} is not the Copilot this command started (pid ${other})`,
      );
    });
});

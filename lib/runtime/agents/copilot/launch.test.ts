// `askaway copilot` as a real process against a stand-in Copilot (test-support/fake-copilot-bin.mjs) and a real
// host: what arrives from Copilot's `--ui-server` port is held to the host's limits (R12.18, R12.19), and the
// bridge talks only to the Copilot it started (R12.22).
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pairDevice } from '../../../host/test-support/devices';
import { closeAllHosts, startTestHost, tempDir } from '../../../host/test-support/test-host';
import { spawnCli, type SpawnedCli } from '../../test-support/run-cli';
import { connectScriptedRemote, type ScriptedRemote } from '../../test-support/scripted-remote';
import { requestIdOf } from './to-interaction';

const FAKE_COPILOT = path.join(import.meta.dirname, 'test-support', 'fake-copilot-bin.mjs');
const WAIT = { timeout: 15_000, interval: 50 };

const started: { cli?: SpawnedCli; others: ChildProcess[]; remote?: ScriptedRemote } = { others: [] };

afterEach(async () => {
  started.remote?.close();
  for (const child of started.others) child.kill('SIGKILL');
  started.others = [];
  if (started.cli && started.cli.child.exitCode === null) {
    // SIGTERM is passed on to Copilot, as a terminal's would be; then this process exits with its code.
    started.cli.child.kill('SIGTERM');
    await started.cli.exited;
  }
  started.cli = undefined;
  await closeAllHosts();
});

/** `askaway copilot` with COPILOT_BIN as a shell script that starts the stand-in as its child (as npm's loader does). */
async function launch(env: Record<string, string>) {
  const host = await startTestHost();
  const remote = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
  started.remote = remote;
  const dir = tempDir();
  const wrapper = path.join(dir, 'copilot');
  const exported = Object.entries(env)
    .map(([name, value]) => `export ${name}='${value}'\n`)
    .join('');
  writeFileSync(wrapper, `#!/bin/sh\n${exported}"${process.execPath}" "${FAKE_COPILOT}" "$@"\n`);
  chmodSync(wrapper, 0o755);
  const log = path.join(dir, 'bridge.log');
  const cli = spawnCli(['copilot'], {
    ASKAWAY_URL: host.url,
    ASKAWAY_TOKEN: host.token,
    ASKAWAY_DATA_DIR: tempDir(),
    ASKAWAY_COPILOT_LOG: log,
    COPILOT_BIN: wrapper,
  });
  started.cli = cli;
  const lines = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
  return { host, remote, cli, dir, lines };
}

describe("[R12.18][R12.19][R12.22] askaway copilot and what Copilot's port sends", () => {
  it('[R12.18] tool arguments and a form schema 5,000 deep stay in Copilot, one log line each; the process stays up and carries the next prompt', async () => {
    const { host, remote, cli, lines } = await launch({ FAKE_COPILOT_SEND: 'deep-args,deep-schema,permission' });
    const card = await remote.next((record) => record.requestId === requestIdOf('plain-2'));
    expect(card.kind).toBe('approval');
    expect(cli.child.exitCode).toBeNull();
    await vi.waitFor(() => expect(lines().filter((line) => line.includes('deep-args-0'))).toHaveLength(1), WAIT);
    expect(lines().filter((line) => line.includes('deep-schema-1'))).toHaveLength(1);
    expect(lines().find((line) => line.includes('deep-args-0'))).toMatch(/nests deeper than 32 levels.*Copilot/);
    expect(host.registry.projection.interactions.size).toBe(1);
  });

  it("[R12.22] a local process that took Copilot's port first gets nothing: the bridge says so and relays nothing to the phone", async () => {
    const { host, cli, dir, lines } = await launch({
      FAKE_COPILOT_LISTEN: '0',
      FAKE_COPILOT_PORT_FILE: path.join(tempDir(), 'port'),
    });
    // The impostor reads the port from Copilot's command line (here: the file the stand-in writes) and binds it.
    const portFile = readFileSync(path.join(dir, 'copilot'), 'utf8').match(/FAKE_COPILOT_PORT_FILE='([^']+)'/)?.[1];
    if (!portFile) throw new Error('no port file in the wrapper');
    await vi.waitFor(() => expect(existsSync(portFile)).toBe(true), WAIT);
    const port = readFileSync(portFile, 'utf8');
    const calls = path.join(dir, 'impostor-calls');
    const impostor = spawn(process.execPath, [FAKE_COPILOT, '--ui-server', '--port', port], {
      env: {
        NODE_ENV: 'test',
        PATH: process.env.PATH ?? '',
        FAKE_COPILOT_SEND: 'permission',
        FAKE_COPILOT_CALLS: calls,
      },
      stdio: 'ignore',
    });
    started.others.push(impostor);
    await vi.waitFor(
      () => expect(lines().some((line) => line.includes('not the Copilot this command started'))).toBe(true),
      WAIT,
    );
    expect(lines().filter((line) => line.includes('not the Copilot this command started'))).toHaveLength(1);
    // Not even `connect` was sent: the bridge closed the connection before relaying anything.
    expect(existsSync(calls)).toBe(false);
    expect(host.registry.projection.interactions.size).toBe(0);
    expect(cli.child.exitCode).toBeNull();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { pairOverHttp } from '../lib/host/test-support/devices';
import { killAllCli, startCliHost } from '../lib/host/test-support/spawn-cli';
import { closeAllHosts, startTestHost, tempDir } from '../lib/host/test-support/test-host';
import { CODEX_PROMPT_METHODS } from '../lib/runtime/agents/codex/protocol';
import { commandApprovalParams } from '../lib/runtime/agents/codex/test-fixtures';
import { startFakeCodexDaemon, type FakeCodexDaemon } from '../lib/runtime/test-support/fake-codex-daemon';
import { connectScriptedRemote } from '../lib/runtime/test-support/scripted-remote';
import { runCli, spawnCli } from '../lib/runtime/test-support/run-cli';
import { codexCommandMain } from './commands/codex';
import { checkStatus, formatStatus, statusJson } from './commands/status';

const THREAD = '01a23100-0000-7000-8000-0000000000c1';
const daemons: FakeCodexDaemon[] = [];

afterEach(async () => {
  killAllCli();
  await Promise.all(daemons.splice(0).map((daemon) => daemon.remove()));
  await closeAllHosts();
});

async function fakeDaemon(): Promise<FakeCodexDaemon> {
  const daemon = await startFakeCodexDaemon();
  daemons.push(daemon);
  daemon.addThread({ id: THREAD, cwd: '/work/project' });
  return daemon;
}

describe('[R18.14] askaway codex and askaway status', () => {
  it('[R18.14] askaway codex attaches to each home it is given, status says so with the threads, and it stops cleanly', async () => {
    const host = await startTestHost();
    const daemon = await fakeDaemon();
    const dataDir = tempDir();
    const env = { ASKAWAY_URL: host.url, ASKAWAY_TOKEN: host.token, ASKAWAY_DATA_DIR: dataDir, HOME: tempDir() };
    let stop: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const logs: string[] = [];
    const running = codexCommandMain(['--codex-home', daemon.codexHome], {
      env,
      log: (line) => logs.push(line),
      stopped,
    });
    await vi.waitFor(async () => {
      const report = await checkStatus(env);
      expect(statusJson(report).codex).toEqual([
        expect.objectContaining({ codexHome: daemon.codexHome, state: 'attached', threads: 1, owner: 'askaway codex' }),
      ]);
      expect(formatStatus(report)).toMatch(
        new RegExp(
          `Codex: +${daemon.codexHome}: attached to the daemon \\(pid \\d+\\), 1 thread \\(askaway codex, pid \\d+\\)`,
        ),
      );
    });
    stop();
    expect(await running).toBe(0);
    expect(statusJson(await checkStatus(env)).codex).toEqual([]);
    expect(logs.join('\n')).toMatch(/attached to the Codex daemon/);
  });

  it('[R18.14] without a token or a joined hub askaway codex says so and exits 1', async () => {
    const run = await runCli(['codex'], { env: { ASKAWAY_DATA_DIR: tempDir(), HOME: tempDir(), ASKAWAY_URL: '' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/askaway codex: .*token/i);
  });

  it('[R18.14] askaway start runs the bridge for its Codex home: a Codex approval reaches the phone', async () => {
    const daemon = await fakeDaemon();
    const dataDir = tempDir();
    const cli = await startCliHost(['--port', '0', '--data-dir', dataDir, '--codex-home', daemon.codexHome], {
      ASKAWAY_TOKEN: 'codex-start-token',
    });
    await vi.waitFor(() => expect(daemon.clients()).toBe(1), { timeout: 10_000 });
    expect(cli.stdout()).toMatch(/Codex bridge: watching .* for a Codex daemon \(--no-codex turns it off\)/);
    await vi.waitFor(() => expect(daemon.received.some((message) => message.method === 'thread/resume')).toBe(true));
    const phone = await connectScriptedRemote(cli.url, (await pairOverHttp(cli.url, dataDir)).credential);
    daemon.ask(THREAD, 0, CODEX_PROMPT_METHODS.command, commandApprovalParams);
    const card = await phone.next((record) => record.sessionId === THREAD);
    expect(card).toMatchObject({ kind: 'approval', agent: { kind: 'codex' }, machine: { id: 'local' } });
    await phone.respond(card.requestId, { action: 'accept', content: { choice: 'accept' } });
    await vi.waitFor(() => expect(daemon.responsesTo(0)).toEqual([{ decision: 'accept' }]));
    phone.close();
    const status = await runCli(['status', '--json'], { env: { ASKAWAY_DATA_DIR: dataDir, HOME: tempDir() } });
    expect(JSON.parse(status.stdout)).toMatchObject({
      codex: [{ codexHome: daemon.codexHome, state: 'attached', owner: 'askaway start' }],
    });
  });
});

describe('[R18.14] askaway start without the bridge', () => {
  it('[R18.14] --no-codex leaves a running Codex daemon alone', async () => {
    const daemon = await fakeDaemon();
    const cli = spawnCli(['start', '--port', '0', '--no-demo', '--no-codex', '--data-dir', tempDir()], {
      ASKAWAY_TOKEN: 'codex-off-token',
      CODEX_HOME: daemon.codexHome,
    });
    await vi.waitFor(() => expect(cli.stdout()).toMatch(/Local:/), { timeout: 15_000 });
    expect(cli.stdout()).not.toMatch(/Codex bridge/);
    expect(daemon.clients()).toBe(0);
    cli.child.kill('SIGTERM');
    await cli.exited;
  });
});

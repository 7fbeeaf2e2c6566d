// Fault drill (R12.18, R12.19): a hostile Copilot `--ui-server` port. A real `askaway copilot` (from source)
// starts a stand-in Copilot (lib/runtime/agents/copilot/test-support/fake-copilot-bin.mjs) and attaches to its
// port, with a real `askaway start` as its hub and a phone watching. The port sends tool arguments and an
// ask_user schema 5,000 deep, then a normal prompt; then, timed, one 32 MiB event and another prompt. Reports
// the bridge's CPU for the 32 MiB frame, the RSS of bridge and host before and after, the worst /healthz
// latency (under 1 s), the bridge's log lines about what it refused, and whether host and bridge are alive.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { errorMessage, type EventBatch } from '../../lib/contracts';
import { requestIdOf } from '../../lib/runtime/agents/copilot/to-interaction';
import { drillOutcome, mib, probeHealthz, until } from '../support/drill-watch';
import { ROOT, type DrillOutcome } from '../support/figures';
import { procUsage, startHost, tempDir } from '../support/host-process';
import { isMain, runAlone } from '../support/main-guard';
import { connectRemote, pairBenchDevice } from '../support/remote-client';

const FAKE_COPILOT = path.join(ROOT, 'lib/runtime/agents/copilot/test-support/fake-copilot-bin.mjs');
/** What the port sends as soon as the bridge follows the session (DRILL_COPILOT_SEND overrides: a before-fix run). */
const FIRST = process.env.DRILL_COPILOT_SEND ?? 'deep-args,deep-schema,permission';
const HUGE_MIB = Number(process.env.DRILL_COPILOT_HUGE_MIB ?? 32);
const HEALTHZ_MAX_MS = 1_000;
const RSS_GROWTH_MAX = 300 * 2 ** 20;

export async function drillCopilotPort(): Promise<DrillOutcome> {
  const name = `a hostile Copilot port: 5,000-deep tool arguments and form schema, a ${HUGE_MIB} MiB frame (R12.18, R12.19)`;
  const problems: string[] = [];
  const host = await startHost();
  const dir = tempDir('askaway-drill-copilot-');
  const log = path.join(dir, 'bridge.log');
  const pidFile = path.join(dir, 'copilot.pid');
  const wrapper = path.join(dir, 'copilot');
  fs.writeFileSync(
    wrapper,
    `#!/bin/sh\nexport FAKE_COPILOT_SEND='${FIRST}' FAKE_COPILOT_SEND_LATER='huge:${HUGE_MIB},permission' ` +
      `FAKE_COPILOT_PID_FILE='${pidFile}'\n"${process.execPath}" "${FAKE_COPILOT}" "$@"\n`,
  );
  fs.chmodSync(wrapper, 0o755);
  const bridge = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bin', 'cli.ts'), 'copilot'], {
    cwd: ROOT,
    env: {
      NODE_ENV: 'production',
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ASKAWAY_URL: host.url,
      ASKAWAY_TOKEN: host.token,
      ASKAWAY_DATA_DIR: tempDir(),
      ASKAWAY_COPILOT_LOG: log,
      COPILOT_BIN: wrapper,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let bridgeStderr = '';
  bridge.stderr.on('data', (chunk: Buffer) => (bridgeStderr += chunk.toString()));
  const bridgeExit = new Promise<number | string>((resolve) =>
    bridge.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const bridgeAlive = () => bridge.exitCode === null && bridge.signalCode === null;
  const lines = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
  const device = await pairBenchDevice(host, 'drill-phone');
  const { socket } = await connectRemote(host.url, device.credential);
  const asked = new Set<string>();
  socket.on('events', (batch: EventBatch) => {
    for (const event of batch.events)
      if (event.type === 'interaction.requested') asked.add(event.interaction.requestId);
  });
  const probe = probeHealthz(host.url);
  let detail = '';
  try {
    const first = FIRST.split(',').length - 1;
    await until(
      'the prompt after the deep ones reached the phone (or the bridge exited)',
      () => asked.has(requestIdOf(`plain-${first}`)) || !bridgeAlive(),
    );
    const deepOutcome = bridgeAlive() ? 'bridge up' : `bridge exited ${await bridgeExit}`;
    const hostBefore = procUsage(host.pid);
    let bridgeBefore = { cpuMicros: 0, rssBytes: 0, at: performance.now() };
    let bridgeAfter = bridgeBefore;
    let hugeMs = 0;
    if (bridgeAlive()) {
      bridgeBefore = procUsage(bridge.pid ?? 0);
      const started = performance.now();
      process.kill(Number(fs.readFileSync(pidFile, 'utf8')), 'SIGUSR2');
      await until(
        `the prompt after the ${HUGE_MIB} MiB frame reached the phone`,
        () => asked.has(requestIdOf('plain-101')) || !bridgeAlive(),
      );
      hugeMs = performance.now() - started;
      if (bridgeAlive()) bridgeAfter = procUsage(bridge.pid ?? 0);
    }
    const hostAfter = procUsage(host.pid);
    const worstHealthz = await probe.stop();
    const hostUp = (await fetch(`${host.url}/healthz`)).ok;
    const refused = lines().filter((line) => /deep-args|deep-schema|over \d+ bytes|skipped/.test(line));
    const cpuSeconds = (bridgeAfter.cpuMicros - bridgeBefore.cpuMicros) / 1e6;
    if (!bridgeAlive()) problems.push(`the bridge exited (${await bridgeExit}): ${bridgeStderr.trim().split('\n')[0]}`);
    if (!hostUp) problems.push('the host stopped answering');
    if (worstHealthz >= HEALTHZ_MAX_MS) problems.push(`/healthz took ${Math.round(worstHealthz)} ms`);
    if (hostAfter.rssBytes - hostBefore.rssBytes > RSS_GROWTH_MAX)
      problems.push(`the host's RSS grew ${mib(hostAfter.rssBytes - hostBefore.rssBytes)} MiB`);
    if (bridgeAfter.rssBytes - bridgeBefore.rssBytes > RSS_GROWTH_MAX)
      problems.push(`the bridge's RSS grew ${mib(bridgeAfter.rssBytes - bridgeBefore.rssBytes)} MiB`);
    if (asked.size !== 2) problems.push(`${asked.size} cards on the phone (2 normal prompts were sent)`);
    detail =
      `deep frames: ${deepOutcome}; ${HUGE_MIB} MiB frame: bridge CPU ${cpuSeconds.toFixed(2)} s, ` +
      `${(hugeMs / 1000).toFixed(1)} s until the next prompt was on the phone; bridge RSS ${mib(bridgeBefore.rssBytes)} → ` +
      `${mib(bridgeAfter.rssBytes)} MiB, host RSS ${mib(hostBefore.rssBytes)} → ${mib(hostAfter.rssBytes)} MiB; ` +
      `${asked.size} cards on the phone; ${refused.length} log line${refused.length === 1 ? '' : 's'} about refused ` +
      `frames; /healthz max ${Math.round(worstHealthz)} ms; host ${hostUp ? 'up' : 'down'}, bridge ${bridgeAlive() ? 'up' : 'down'}`;
  } catch (error) {
    problems.push(errorMessage(error));
  } finally {
    await probe.stop().catch(() => undefined);
    socket.disconnect();
    if (bridgeAlive()) {
      bridge.kill('SIGTERM');
      await bridgeExit;
    }
    await host.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return drillOutcome(name, detail, problems);
}

if (isMain(import.meta.url))
  await runAlone('drills/hostile-copilot-port', async () => ({ figures: [], drills: [await drillCopilotPort()] }));

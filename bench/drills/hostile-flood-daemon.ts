// Fault drill (R12.17): a prompt flood through a fake daemon. A fake Codex daemon, found by the Codex bridge
// inside a real `askaway start` through its Codex home (--codex-home, as CODEX_HOME would), sends new
// `item/tool/requestUserInput` prompts as fast as it can for DRILL_FLOOD_MS (10 s). Reports the host's RSS
// before and after, its CPU, how many prompts the bridge carried to the phone and how many the daemon got an
// answer for, the worst /healthz latency (must stay under 1 s), the bridge's log lines about it, and whether
// an agent of the hub's own can still ask afterwards. Stops early when the host's RSS passes 1 GiB.
import os from 'node:os';
import { errorMessage } from '../../lib/contracts';
import { CODEX_PROMPT_METHODS } from '../../lib/runtime/agents/codex/protocol';
import { requestUserInputParams } from '../../lib/runtime/agents/codex/test-fixtures';
import { startCodexDaemonHost } from '../support/codex-daemon-host';
import { drillOutcome, mib, probeHealthz, quietHealthz } from '../support/drill-watch';
import { type DrillOutcome } from '../support/figures';
import { procUsage } from '../support/host-process';
import { isMain, runAlone } from '../support/main-guard';
import { interactionRequest } from '../support/payloads';
import { connectRawRuntime } from '../support/raw-runtime';

const FLOOD_MS = Number(process.env.DRILL_FLOOD_MS ?? 10_000);
const RSS_STOP_BYTES = 1024 ** 3;
const HEALTHZ_MAX_MS = 1_000;
const THREAD = '01a23100-0000-7000-8000-00000000f100';
/** Prompts per second the daemon sends (twice the review's 9,800 in 10 s); 0: as fast as it can. */
const FLOOD_RATE = Number(process.env.DRILL_FLOOD_RATE ?? 2_000);
/** Prompts sent at most between two turns of the drill's own event loop. */
const PER_TURN = 200;

export async function drillFloodDaemon(): Promise<DrillOutcome> {
  const name = `prompt flood through a fake daemon: a Codex daemon asking for ${FLOOD_MS / 1000} s (R12.17)`;
  const problems: string[] = [];
  // The host as a person runs it, with its Codex bridge watching the fake daemon's home.
  const peer = await startCodexDaemonHost({ id: THREAD, cwd: '/home/dev/projects/service', name: 'Flood' }, [
    '--max-pending',
    '500',
  ]);
  const { daemon, host } = peer;
  let detail = '';
  try {
    await peer.joined();
    // The same probe with no flood first.
    const quiet = await quietHealthz(host.url);
    const before = procUsage(host.pid);
    const probe = probeHealthz(host.url);
    let peakRss = before.rssBytes;
    let sent = 0;
    let stoppedEarly = false;
    const started = performance.now();
    let sampled = 0;
    while (performance.now() - started < FLOOD_MS) {
      const due = FLOOD_RATE > 0 ? Math.floor(((performance.now() - started) / 1000) * FLOOD_RATE) - sent : PER_TURN;
      for (let index = 0; index < Math.min(due, PER_TURN); index += 1, sent += 1)
        daemon.ask(THREAD, 10_000 + sent, CODEX_PROMPT_METHODS.question, requestUserInputParams);
      await new Promise((resolve) => (FLOOD_RATE > 0 ? setTimeout(resolve, 5) : setImmediate(resolve)));
      if (performance.now() - sampled > 250) {
        sampled = performance.now();
        peakRss = Math.max(peakRss, procUsage(host.pid).rssBytes);
        if (peakRss > RSS_STOP_BYTES) {
          stoppedEarly = true;
          break;
        }
      }
    }
    const floodMs = performance.now() - started;
    // What the host does with what it was sent, for as long again as the flood took at most.
    const settleUntil = performance.now() + Math.min(floodMs, 10_000);
    while (performance.now() < settleUntil) {
      peakRss = Math.max(peakRss, procUsage(host.pid).rssBytes);
      if (peakRss > RSS_STOP_BYTES) {
        stoppedEarly = true;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const after = procUsage(host.pid);
    const worstHealthz = await probe.stop();
    const cpuPercent = Math.round(((after.cpuMicros - before.cpuMicros) / 1_000 / (after.at - before.at)) * 100);
    const held = peer.held();
    const answered = daemon.received.filter((message) => message.method === undefined && 'result' in message).length;
    const output = host.output();
    const overflowLines = output.split('\n').filter((line) => line.includes("Codex's terminal")).length;
    // An agent of the hub's own asks once the flood is over.
    let normal = 'not tried';
    if (!stoppedEarly) {
      const agent = await connectRawRuntime(host.url, host.token, 'drill-mcp');
      const ack = await agent.timeout(10_000).emitWithAck('announce', interactionRequest('after-flood', 'drill'));
      normal = ack.ok ? ack.status : ack.error.code;
      agent.disconnect();
    }
    if (stoppedEarly) problems.push(`the host's RSS passed ${mib(RSS_STOP_BYTES)} MiB: stopped early`);
    if (worstHealthz >= HEALTHZ_MAX_MS) problems.push(`/healthz took ${Math.round(worstHealthz)} ms`);
    if (normal !== 'pending') problems.push(`a normal agent's question after the flood: ${normal}`);
    if (answered > 0) problems.push(`the daemon got ${answered} answers nobody gave`);
    if (overflowLines > 1) problems.push(`${overflowLines} log lines about prompts left to the terminal`);
    detail =
      `${sent.toLocaleString('en-US')} unique prompts in ${(floodMs / 1000).toFixed(1)} s; host RSS ` +
      `${mib(before.rssBytes)} → ${mib(after.rssBytes)} MiB (peak ${mib(peakRss)}), CPU ${cpuPercent} % over ` +
      `${((after.at - before.at) / 1000).toFixed(1)} s; ${held} held on the phone, ${answered} answered to the daemon, ` +
      `${overflowLines} log line${overflowLines === 1 ? '' : 's'} about the rest; /healthz max ${Math.round(worstHealthz)} ms ` +
      `(${Math.round(quiet)} ms in 3 s before the flood, load ${os.loadavg()[0]?.toFixed(1)}); ` +
      `a normal agent's question after it: ${normal}`;
  } catch (error) {
    problems.push(errorMessage(error));
  } finally {
    await peer.stop();
  }
  return drillOutcome(name, detail, problems);
}

if (isMain(import.meta.url))
  await runAlone('drills/hostile-flood-daemon', async () => ({ figures: [], drills: [await drillFloodDaemon()] }));

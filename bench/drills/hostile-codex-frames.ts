// Fault drill (R12.18, R12.19): a Codex daemon sending what no real one sends, to a real `askaway start` whose
// Codex bridge serves the fake daemon's home (--codex-home). Three rounds, as the review's repros:
//   1. frames nested 6,000 deep: an MCP tool approval's tool_params, a form field's schema, notifications
//      (thread/started, item/started, serverRequest/resolved) and an answer (thread/items/list);
//   2. twenty 48 MiB `item/started` file changes (past the 16 MiB frame bound), then twenty of 15 MiB (inside it);
//   3. 20,000 `thread/started` with 50 KB previews.
// After each, a plain question must still reach the phone. Reports the host's RSS before and after (it must stay
// within 300 MiB of the start), its peak, the worst /healthz latency (under 1 s), the bridge's log lines about
// it, and whether the host is alive at the end. DRILL_CODEX_ROUNDS=2,3 runs some rounds only.
import os from 'node:os';
import { errorMessage } from '../../lib/contracts';
import { CODEX_PROMPT_METHODS } from '../../lib/runtime/agents/codex/protocol';
import { requestUserInputParams } from '../../lib/runtime/agents/codex/test-fixtures';
import { type FakeCodexDaemon } from '../../lib/runtime/test-support/fake-codex-daemon';
import { startCodexDaemonHost, type CodexDaemonHost } from '../support/codex-daemon-host';
import { drillOutcome, mib, probeHealthz, quietHealthz, until } from '../support/drill-watch';
import { type DrillOutcome } from '../support/figures';
import { procUsage, type HostProcess } from '../support/host-process';
import { isMain, runAlone } from '../support/main-guard';

const THREAD = '01a23100-0000-7000-8000-00000000c0de';
const DEPTH = 6_000;
const RSS_GROWTH_MAX = 300 * 2 ** 20;
const HEALTHZ_MAX_MS = 1_000;
const ROUNDS = new Set((process.env.DRILL_CODEX_ROUNDS ?? '1,2,3').split(',').map(Number));

/** JSON text nested DEPTH objects deep around `leaf`, written as text. */
const deep = (leaf = '1') => `${'{"a":'.repeat(DEPTH)}${leaf}${'}'.repeat(DEPTH)}`;

const alive = (host: HostProcess) => host.child.exitCode === null && host.child.signalCode === null;

/** Asks a plain question and waits until the bridge carries it to the phone (askaway status counts it). */
async function plainQuestionCarried(
  { host, daemon, held }: { host: HostProcess; daemon: FakeCodexDaemon; held(): number },
  id: number,
): Promise<void> {
  const before = held();
  daemon.ask(THREAD, id, CODEX_PROMPT_METHODS.question, requestUserInputParams);
  await until(`question ${id} reached the phone`, () => !alive(host) || held() > before, 90_000);
  if (!alive(host)) throw new Error(`the host exited (${String(host.child.exitCode ?? host.child.signalCode)})`);
}

async function deepFrames(daemon: FakeCodexDaemon): Promise<void> {
  const elicitation = CODEX_PROMPT_METHODS.elicitation;
  daemon.answerRaw('thread/items/list', (id) => `{"id":${id},"result":{"data":[${deep()}]}}`);
  daemon.sendRaw(
    `{"id":1,"method":"${elicitation}","params":{"threadId":"${THREAD}","turnId":"t1","serverName":"files",` +
      `"mode":"form","message":"Allow?","_meta":{"codex_approval_kind":"mcp_tool_call","tool_name":"write",` +
      `"tool_params":${deep()}}}}`,
  );
  daemon.sendRaw(
    `{"id":2,"method":"${elicitation}","params":{"threadId":"${THREAD}","serverName":"forms","mode":"form",` +
      `"message":"Fill in","requestedSchema":{"type":"object","properties":{"name":{"type":${deep()}}}}}}`,
  );
  daemon.sendRaw(`{"method":"thread/started","params":{"thread":{"id":"x","ephemeral":false,"extra":${deep()}}}}`);
  daemon.sendRaw(
    `{"method":"item/started","params":{"threadId":"${THREAD}","item":{"type":"fileChange","id":"c",` +
      `"changes":[{"path":"a","kind":${deep()},"diff":""}]}}}`,
  );
  daemon.sendRaw(`{"method":"serverRequest/resolved","params":${deep()}}`);
}

/** One `item/started` of a patch whose one file's diff is `diff`. */
const fileChange = (index: number, diff: string) => ({
  threadId: THREAD,
  turnId: 't1',
  item: {
    type: 'fileChange',
    id: `call_big_${index}`,
    changes: [{ path: `src/big-${index}.ts`, kind: { type: 'update' }, diff }],
  },
});

async function bigFileChanges(peer: CodexDaemonHost, sample: () => void): Promise<void> {
  const { daemon } = peer;
  const huge = 'd'.repeat(48 * 2 ** 20);
  for (let index = 0; index < 20; index += 1) {
    await until('the bridge is connected', () => daemon.clients() === 1, 30_000);
    daemon.notify('item/started', fileChange(index, huge));
    // Handled in order: once a question asked after it is carried, the frame was read (or its connection
    // closed, and the question re-sent on the re-join, as Codex does).
    await plainQuestionCarried(peer, 1_000 + index);
    sample();
  }
  const large = 'e'.repeat(15 * 2 ** 20);
  for (let index = 0; index < 20; index += 1) {
    daemon.notify('item/started', fileChange(100 + index, large));
    sample();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function manyThreads(daemon: FakeCodexDaemon, sample: () => void): Promise<void> {
  const preview = 'p'.repeat(50_000);
  for (let index = 0; index < 20_000; index += 1) {
    const id = `01a23100-0000-7000-8001-${index.toString(16).padStart(12, '0')}`;
    daemon.addThread({ id });
    daemon.notify('thread/started', { thread: { id, ephemeral: false, preview, cwd: '/home/dev/projects/service' } });
    if (index % 200 === 199) {
      sample();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

export async function drillCodexFrames(): Promise<DrillOutcome> {
  const name = 'hostile Codex daemon: frames 6,000 deep, 48 MiB file changes, 20,000 threads (R12.18, R12.19)';
  const problems: string[] = [];
  const peer = await startCodexDaemonHost({ id: THREAD, cwd: '/home/dev/projects/service', name: 'Hostile' });
  const { daemon, host } = peer;
  let detail = '';
  try {
    await peer.joined();
    // The same probe with nothing sent first.
    const quiet = await quietHealthz(host.url);
    const before = procUsage(host.pid);
    let peak = before.rssBytes;
    const sample = () => {
      if (alive(host)) peak = Math.max(peak, procUsage(host.pid).rssBytes);
    };
    const figures: string[] = [];
    let worst = 0;
    let question = 100;
    const round = async (label: string, run: () => Promise<void>) => {
      const started = performance.now();
      const probe = probeHealthz(host.url, { probeOnStop: true });
      try {
        await run();
        await plainQuestionCarried(peer, (question += 1));
        sample();
      } catch (error) {
        problems.push(`${label}: ${errorMessage(error)}`);
      }
      const roundWorst = await probe.stop();
      worst = Math.max(worst, roundWorst);
      const rss = alive(host) ? `${mib(procUsage(host.pid).rssBytes)} MiB` : '(gone)';
      figures.push(
        `${label}: ${((performance.now() - started) / 1000).toFixed(1)} s, RSS ${rss}, /healthz max ${Math.round(roundWorst)} ms`,
      );
    };
    if (ROUNDS.has(1)) await round('deep frames', () => deepFrames(daemon));
    if (ROUNDS.has(2) && alive(host)) await round('48/15 MiB item/started', () => bigFileChanges(peer, sample));
    if (ROUNDS.has(3) && alive(host)) await round('20,000 thread/started', () => manyThreads(daemon, sample));
    const after = alive(host) ? procUsage(host.pid) : undefined;
    const output = host.output();
    const count = (pattern: RegExp) => output.split('\n').filter((line) => pattern.test(line)).length;
    const refused = count(/refused a message from the daemon/);
    const bounds = count(/than the bridge keeps/);
    const detached = count(/detached:/);
    const lastResort = count(/kept serving after/);
    if (!alive(host)) problems.push(`the host exited (${String(host.child.exitCode ?? host.child.signalCode)})`);
    if (after && after.rssBytes - before.rssBytes > RSS_GROWTH_MAX)
      problems.push(`RSS grew by ${mib(after.rssBytes - before.rssBytes)} MiB`);
    if (worst >= HEALTHZ_MAX_MS) problems.push(`/healthz took ${Math.round(worst)} ms`);
    detail =
      `${figures.join('; ')}; host RSS ${mib(before.rssBytes)} → ${after ? mib(after.rssBytes) : '(gone)'} MiB ` +
      `(peak ${mib(peak)}); /healthz max ${Math.round(worst)} ms (${Math.round(quiet)} ms in 3 s before, ` +
      `load ${os.loadavg()[0]?.toFixed(1)}); log: ${refused} refused-frame line(s), ` +
      `${bounds} bound line(s), ${detached} detach line(s), ${lastResort} last-resort line(s); host ${alive(host) ? 'alive' : 'gone'}`;
  } catch (error) {
    problems.push(errorMessage(error));
  } finally {
    await peer.stop();
  }
  return drillOutcome(name, detail, problems);
}

if (isMain(import.meta.url))
  await runAlone('drills/hostile-codex-frames', async () => ({ figures: [], drills: [await drillCodexFrames()] }));

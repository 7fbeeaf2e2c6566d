// Fault drill (R12.16), special files: what an outside caller names as a file is a FIFO, a link to
// /dev/zero or a file of a gigabyte. Against real host processes:
// - Claude Code's HTTP hook with the agent token (the hub reads its own agents' files) and with a joined
//   machine's credential (the hub opens none): five FIFOs as `transcript_path`, /dev/zero behind a
//   transcript and a plan file, a FIFO as the plan file, a sparse 1 GiB transcript and plan file.
// - the Codex bridge in `askaway start`, attaching to a daemon whose `daemon.pid` is each of them.
// Throughout, `/healthz` and `GET /` must answer within 1 s; each post must still become a card.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { errorMessage, type EventBatch, type InteractionRecord } from '../../lib/contracts';
import { readAdminToken } from '../../lib/host/test-support/devices';
import { mintJoinCode, redeemJoinCode } from '../../lib/host/test-support/machines';
import { startFakeCodexDaemon } from '../../lib/runtime/test-support/fake-codex-daemon';
import {
  makeDevZeroLink,
  makeFifo,
  makeHugeFile,
  type SpecialFile,
} from '../../lib/runtime/test-support/special-files';
import { type DrillOutcome } from '../support/figures';
import { startHost, tempDir, type HostProcess } from '../support/host-process';
import { isMain, runAlone } from '../support/main-guard';
import { connectRemote, pairBenchDevice } from '../support/remote-client';

const ANSWER_WITHIN_MS = 1_000;
/** How long one GET is given before it counts as not answering at all. */
const GIVE_UP_MS = 10_000;
const GIB = 2 ** 30;
const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

/** Milliseconds until `path` answers, or undefined when it did not within `limitMs`. */
async function answerMs(url: string, pathname: string, limitMs = GIVE_UP_MS): Promise<number | undefined> {
  const started = performance.now();
  try {
    const response = await fetch(`${url}${pathname}`, { signal: AbortSignal.timeout(limitMs) });
    await response.arrayBuffer();
    return response.status < 500 ? Math.round(performance.now() - started) : undefined;
  } catch {
    return undefined;
  }
}

/** Asks `/healthz` and `GET /` every 100 ms; a miss is an answer slower than 1 s, or none. */
function watchHost(url: string) {
  let stopped = false;
  const misses: string[] = [];
  let checks = 0;
  let slowest = 0;
  const running = (async () => {
    while (!stopped) {
      for (const pathname of ['/healthz', '/']) {
        const ms = await answerMs(url, pathname, ANSWER_WITHIN_MS);
        checks += 1;
        if (ms === undefined) misses.push(`${pathname} did not answer within ${ANSWER_WITHIN_MS} ms`);
        else slowest = Math.max(slowest, ms);
      }
      await delay(100);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await running;
      return { checks, misses, slowest };
    },
  };
}

const describeMs = (ms: number | undefined) => (ms === undefined ? `no answer in ${GIVE_UP_MS / 1000} s` : `${ms} ms`);

/** Waits until `done()` or `ms` passed; true when done. */
async function until(done: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await delay(20);
  return done();
}

async function rss(host: HostProcess): Promise<string> {
  try {
    return `${mib((await host.usage()).rssBytes)} MiB`;
  } catch {
    return 'no answer';
  }
}

let nextToolUse = 0;

function planHook(transcript: string, toolInput: Record<string, unknown>) {
  nextToolUse += 1;
  return {
    session_id: `drill-files-${nextToolUse}`,
    transcript_path: transcript,
    cwd: '/home/dev/project',
    hook_event_name: 'PermissionRequest',
    tool_name: 'ExitPlanMode',
    tool_input: toolInput,
    tool_use_id: `toolu_files_${nextToolUse}`,
  };
}

/** Claude Code's HTTP hook, posted and left waiting (as Claude Code does while its dialog is open). */
function postHook(host: HostProcess, credential: string, body: unknown, open: AbortController[]) {
  const controller = new AbortController();
  open.push(controller);
  void fetch(`${host.url}/hooks/claude-code`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${credential}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: controller.signal,
  }).catch(() => undefined);
}

async function drillHookFiles(): Promise<{ figures: string[]; problems: string[] }> {
  const host = await startHost();
  const dir = tempDir('askaway-drill-files-');
  const specials: SpecialFile[] = [];
  const open: AbortController[] = [];
  const problems: string[] = [];
  const figures: string[] = [];
  const cards = new Map<string, InteractionRecord>();
  const watch = watchHost(host.url);
  try {
    const { code } = await mintJoinCode(host.url, readAdminToken(host.dataDir));
    const machine = (await redeemJoinCode(host.url, code, 'drill-laptop')).credential;
    const phone = await connectRemote(host.url, (await pairBenchDevice(host, 'drill-phone')).credential);
    phone.socket.on('events', (batch: EventBatch) => {
      for (const event of batch.events)
        if (event.type === 'interaction.requested') cards.set(event.interaction.requestId, event.interaction);
    });
    const rssBefore = await rss(host);
    const regular = path.join(dir, 'session.jsonl');
    fs.writeFileSync(regular, '');
    const cases = async (who: string, credential: string) => {
      const before = cards.size;
      const fifos = Array.from({ length: 5 }, (_, index) => makeFifo(path.join(dir, `${who}-fifo-${index}.jsonl`)));
      specials.push(...fifos);
      for (const { file } of fifos) postHook(host, credential, planHook(file, { plan: 'The plan.' }), open);
      const cardsInTime = await until(() => cards.size >= before + 5, 3_000);
      figures.push(
        `${who}: GET / after five FIFO transcripts ${describeMs(await answerMs(host.url, '/'))}` +
          ` (${cards.size - before} of 5 became cards${cardsInTime ? '' : ' in 3 s'})`,
      );
      const zeroLog = makeDevZeroLink(path.join(dir, `${who}-zero.jsonl`));
      const zeroPlan = makeDevZeroLink(path.join(dir, `${who}-zero-plan.md`));
      const fifoPlan = makeFifo(path.join(dir, `${who}-fifo-plan.md`));
      const hugeLog = makeHugeFile(path.join(dir, `${who}-huge.jsonl`), GIB);
      const hugePlan = makeHugeFile(
        path.join(dir, `${who}-huge-plan.md`),
        GIB,
        `# A long plan\n${'A step.\n'.repeat(40_000)}`,
      );
      specials.push(zeroLog, zeroPlan, fifoPlan, hugeLog, hugePlan);
      const others = [
        planHook(zeroLog.file, { plan: 'The plan.' }),
        planHook(regular, { planFilePath: zeroPlan.file }),
        planHook(regular, { planFilePath: fifoPlan.file }),
        planHook(hugeLog.file, { plan: 'The plan.' }),
        planHook(regular, { planFilePath: hugePlan.file }),
      ];
      const start = cards.size;
      for (const body of others) postHook(host, credential, body, open);
      const done = await until(() => cards.size >= start + others.length, 5_000);
      if (!done) problems.push(`${who}: ${cards.size - start} of ${others.length} special-file posts became cards`);
      if (!(await until(() => cards.size >= before + 10, 2_000)))
        problems.push(`${who}: ${cards.size - before} of 10 posts became cards`);
      figures.push(
        `${who}: /dev/zero, FIFO plan and 1 GiB cases: GET / ${describeMs(await answerMs(host.url, '/'))}, RSS ${await rss(host)}`,
      );
    };
    await cases('agent token', host.token);
    await cases('joined machine', machine);
    figures.push(`RSS ${rssBefore} before, ${await rss(host)} after`);
    phone.socket.disconnect();
  } catch (error) {
    problems.push(errorMessage(error));
  } finally {
    const watched = await watch.stop();
    for (const controller of open) controller.abort();
    for (const special of specials) special.remove();
    figures.push(`${watched.checks} checks of /healthz and GET /, slowest ${watched.slowest} ms`);
    if (watched.misses.length > 0)
      problems.push(`${watched.misses.length} checks missed (${[...new Set(watched.misses)].join('; ')})`);
    await host.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { figures, problems };
}

/** The Codex bridge in `askaway start` attaching to a daemon whose daemon.pid is `make(file)`. */
async function drillDaemonPid(kind: string, make: (file: string) => SpecialFile) {
  const daemon = await startFakeCodexDaemon();
  const pidFile = path.join(daemon.codexHome, 'app-server-daemon', 'daemon.pid');
  fs.rmSync(pidFile);
  const special = make(pidFile);
  const problems: string[] = [];
  let figure = '';
  const host = await startHost({ codexHomes: [daemon.codexHome] });
  const watch = watchHost(host.url);
  try {
    const attached = await until(() => host.output().includes('attached to the Codex daemon'), 5_000);
    const ms = await answerMs(host.url, '/');
    const exit = host.child.exitCode ?? host.child.signalCode;
    figure =
      `daemon.pid ${kind}: GET / ${describeMs(ms)} after the bridge ${attached ? 'attached' : 'did not attach in 5 s'}, ` +
      (exit === null ? `RSS ${await rss(host)}` : `the host exited (${exit})`);
    if (!attached) problems.push(`daemon.pid ${kind}: the bridge did not attach`);
  } catch (error) {
    problems.push(errorMessage(error));
  } finally {
    const watched = await watch.stop();
    special.remove();
    if (watched.misses.length > 0)
      problems.push(`daemon.pid ${kind}: ${watched.misses.length} of ${watched.checks} checks missed`);
    await host.stop();
    await daemon.remove();
  }
  return { figure, problems };
}

export async function drillSpecialFiles(): Promise<DrillOutcome> {
  const hooks = await drillHookFiles();
  const pids = [
    await drillDaemonPid('a FIFO', makeFifo),
    await drillDaemonPid('a link to /dev/zero', makeDevZeroLink),
    await drillDaemonPid('1 GiB', (file) => makeHugeFile(file, GIB, '{"pid":1,')),
  ];
  const problems = [...hooks.problems, ...pids.flatMap((pid) => pid.problems)];
  return {
    name: 'special files: FIFOs, /dev/zero links and 1 GiB files named by a hook or a Codex home (R12.16)',
    ok: problems.length === 0,
    detail:
      [...hooks.figures, ...pids.map((pid) => pid.figure)].join('; ') +
      (problems.length > 0 ? `; PROBLEMS: ${problems.join(' | ')}` : ''),
  };
}

if (isMain(import.meta.url))
  await runAlone('drills/hostile-files', async () => ({ figures: [], drills: [await drillSpecialFiles()] }));

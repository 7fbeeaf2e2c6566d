// R17.9: one hub, 10 joined machines × 20 agents (runtime connections) × 5 pending questions each,
// every agent re-announcing every second (R8.1) through the real broker and host connection, with
// the same session and request ids on every machine (R17.4). One machine flaps: every 5 s all its
// agents drop their connections (as a killed process would: nothing withdrawn) and come back,
// re-announcing their questions. Measures the hub child's CPU and RSS from /proc over the window,
// the `machines` lists a phone receives, and the inbox restore in headless Chromium while the load
// and the flapping go on. Baseline, in the same run on a fresh hub: the same 200 agents and 1,000
// pending questions from one joined machine, nothing flapping.
import { setMaxListeners } from 'node:events';
import { type Page } from '@playwright/test';
import { type MachineInfo } from '../lib/contracts';
import { readAdminToken } from '../lib/host/test-support/devices';
import { mintJoinCode, redeemJoinCode } from '../lib/host/test-support/machines';
import { connectToHost, type HostConnection } from '../lib/runtime/host-connection';
import { createRuntimeBroker } from '../lib/runtime/runtime-broker';
import { launchBrowser, pairingInitScript } from './support/browser';
import { inboxPaintScript } from './support/inbox-paint';
import { MESSAGE_TIMING_SCRIPT, type MessageCost } from './support/message-timing';
import { figure, round, type Figure } from './support/figures';
import { procUsage, startHost, type HostProcess } from './support/host-process';
import { isMain, runAlone } from './support/main-guard';
import { permissionRequest } from './support/payloads';
import { connectRemote, pairBenchDevice } from './support/remote-client';
import { median } from './support/stats';

const MACHINES = Number(process.env.BENCH_MACHINES ?? 10);
const AGENTS = Number(process.env.BENCH_MACHINE_AGENTS ?? 20);
const PENDING = Number(process.env.BENCH_MACHINE_PENDING ?? 5);
const WINDOW_MS = Number(process.env.BENCH_MACHINES_WINDOW_MS ?? 30_000);
const RESTORE_RUNS = Number(process.env.BENCH_MACHINES_RESTORE_RUNS ?? 5);
const FLAP_MS = 5_000;
/** Machine lists timed on the open page: two flaps, each an away and a back. */
const MACHINE_LISTS_TIMED = 4;
const TOTAL = MACHINES * AGENTS * PENDING;
/** Let every re-announce loop reach its steady 1 s rhythm before measuring. */
const SETTLE_MS = 3_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Agent {
  connection: HostConnection;
  abort: AbortController;
}

interface Machine {
  credential: string;
  agents: Agent[];
}

interface Scenario {
  machines: number;
  agentsPerMachine: number;
  flap: boolean;
}

interface Measured {
  cpuShare: number;
  peakRssBytes: number;
  listsPerSecond: number;
  restoreMs: number;
  /** To the end of the first frame drawn with the whole inbox. */
  paintedMs: number;
  /** The page's time on each `machines` list with the whole inbox open (empty when nothing flaps). */
  machineListMs: number[];
  flaps: number;
  wallMs: number;
}

/** Joins a machine as `askaway invite` + `askaway join` do, over HTTP; returns its credential. */
async function joinMachine(host: HostProcess, name: string): Promise<string> {
  const { code } = await mintJoinCode(host.url, readAdminToken(host.dataDir));
  return (await redeemJoinCode(host.url, code, name)).credential;
}

/** One agent: a runtime connection with PENDING questions waiting, each re-announced every second. */
function startAgent(url: string, credential: string, agent: number): Agent {
  const connection = connectToHost({ url, token: credential, label: `agent-${agent}` });
  const abort = new AbortController();
  setMaxListeners(0, abort.signal);
  const broker = createRuntimeBroker(connection);
  for (let index = 0; index < PENDING; index += 1) {
    // The same ids on every machine: the hub keeps them apart (R17.4).
    const request = permissionRequest(`agent-${agent}-q${index}`, `session-${agent}`);
    broker.requestPermission(request, { signal: abort.signal }).catch(() => undefined);
  }
  return { connection, abort };
}

/** Drops the agents' connections without withdrawing anything, as a killed process would. */
async function dropAgents(agents: readonly Agent[]): Promise<void> {
  await Promise.all(agents.map((agent) => agent.connection.close()));
  for (const agent of agents) agent.abort.abort();
}

/**
 * Waits for the first commit after the connect that shows all TOTAL items, and reads how long it
 * took: the first whole inbox, as R13.2 means it, not a later re-render (a `machines` list, say).
 */
async function fullInbox(page: Page): Promise<{ connectToRendered: number; connectToPainted: number; items: number }> {
  const handle = await page.waitForFunction(
    (total) => {
      const hook = window.__askaway;
      if (hook === undefined || hook.connectedAt === null || window.__inboxPaintedAt === undefined) return null;
      const whole = hook.inboxCommits.find((commit) => commit.count === total);
      if (whole === undefined) return null;
      return { rendered: whole.at - hook.connectedAt, painted: window.__inboxPaintedAt - hook.connectedAt };
    },
    TOTAL,
    { timeout: 60_000, polling: 50 },
  );
  const marks = await handle.jsonValue();
  const items = await page.evaluate(() => document.querySelectorAll('[data-testid="inbox.item"]').length);
  return { connectToRendered: marks?.rendered ?? Number.NaN, connectToPainted: marks?.painted ?? Number.NaN, items };
}

/** How many interactions the hub holds pending, from a fresh snapshot (`credential`: a paired device's). */
async function pendingCount(host: HostProcess, credential: string): Promise<number> {
  const probe = await connectRemote(host.url, credential);
  probe.socket.disconnect();
  return 'pending' in probe.first ? probe.first.pending.length : -1;
}

/** One hub under one scenario: load it, measure CPU and memory over the window, then the phone's restore. */
async function measure(scenario: Scenario, browser: Awaited<ReturnType<typeof launchBrowser>>): Promise<Measured> {
  const host = await startHost();
  const machines: Machine[] = [];
  let flapper: ReturnType<typeof setInterval> | undefined;
  try {
    for (let index = 0; index < scenario.machines; index += 1) {
      const credential = await joinMachine(host, `machine-${String(index).padStart(2, '0')}`);
      const agents: Agent[] = [];
      for (let agent = 0; agent < scenario.agentsPerMachine; agent += 1)
        agents.push(startAgent(host.url, credential, agent));
      machines.push({ credential, agents });
    }
    await Promise.all(machines.flatMap((entry) => entry.agents).map((agent) => agent.connection.ready(60_000)));
    // One paired phone: the probe, the Node remote and the page below all use its credential.
    const device = await pairBenchDevice(host, 'bench-phone');
    const probe = device.credential;
    const deadline = performance.now() + 120_000;
    for (;;) {
      const pending = await pendingCount(host, probe);
      if (pending === TOTAL) break;
      if (performance.now() > deadline) throw new Error(`the hub holds ${pending} pending after 120 s, not ${TOTAL}`);
      await sleep(500);
    }

    const phone = await connectRemote(host.url, device.credential);
    const lists: MachineInfo[][] = [];
    phone.socket.on('machines', (list) => lists.push(list.machines));

    // The first machine flaps: all its agents drop and come back with the same questions every 5 s.
    let flaps = 0;
    const flapping = machines[0];
    if (scenario.flap && flapping) {
      let busy = false;
      flapper = setInterval(() => {
        if (busy) return;
        busy = true;
        const gone = flapping.agents;
        void dropAgents(gone).then(() => {
          flapping.agents = gone.map((_, agent) => startAgent(host.url, flapping.credential, agent));
          flaps += 1;
          busy = false;
        });
      }, FLAP_MS);
    }
    await sleep(SETTLE_MS);

    // CPU and RSS from /proc: an overloaded host answers IPC late, /proc never does.
    const before = procUsage(host.pid);
    const listsBefore = lists.length;
    const flapsBefore = flaps;
    let peakRss = before.rssBytes;
    const samples = Math.max(1, Math.round(WINDOW_MS / 1_000));
    for (let second = 0; second < samples; second += 1) {
      await sleep(WINDOW_MS / samples);
      peakRss = Math.max(peakRss, procUsage(host.pid).rssBytes);
    }
    const after = procUsage(host.pid);
    const flapsInWindow = flaps - flapsBefore;
    const wallMs = after.at - before.at;

    // The phone opens the app while the load (and the flapping) goes on: the whole inbox, every machine.
    const context = await browser.newContext({ viewport: { width: 412, height: 915 } });
    await context.addInitScript(pairingInitScript(device));
    await context.addInitScript({ content: MESSAGE_TIMING_SCRIPT });
    await context.addInitScript(inboxPaintScript(TOTAL));
    const page = await context.newPage();
    await page.goto(`${host.url}/`);
    await fullInbox(page);
    const restores: number[] = [];
    const painted: number[] = [];
    for (let run = 0; run < RESTORE_RUNS; run += 1) {
      await page.reload({ waitUntil: 'commit' });
      const { connectToRendered, connectToPainted, items } = await fullInbox(page);
      if (items !== TOTAL) throw new Error(`the inbox shows ${items} items, expected ${TOTAL}`);
      restores.push(connectToRendered);
      painted.push(connectToPainted);
    }
    // With the whole inbox open: what one machine list costs the page, over two flaps (away, back).
    const machineListMs: number[] = [];
    if (scenario.flap) {
      await page.evaluate(() => window.__messageCosts?.splice(0));
      const lists = await page.waitForFunction(
        (wanted) => {
          const costs = (window.__messageCosts ?? []).filter((cost) => cost.event === 'machines');
          return costs.length >= wanted ? costs : null;
        },
        MACHINE_LISTS_TIMED,
        { timeout: 60_000, polling: 200 },
      );
      machineListMs.push(...((await lists.jsonValue()) ?? []).map((cost: MessageCost) => cost.ms));
    }
    await context.close();
    phone.socket.disconnect();
    // A dropped machine's questions stay pending (R17.6): nothing was lost to the flapping.
    const pendingAtEnd = await pendingCount(host, probe);
    if (pendingAtEnd !== TOTAL) throw new Error(`${pendingAtEnd} pending at the end, expected ${TOTAL}`);
    return {
      cpuShare: ((after.cpuMicros - before.cpuMicros) / 1000 / wallMs) * 100,
      peakRssBytes: peakRss,
      listsPerSecond: ((lists.length - listsBefore) / wallMs) * 1000,
      restoreMs: median(restores),
      paintedMs: median(painted),
      machineListMs,
      flaps: flapsInWindow,
      wallMs,
    };
  } finally {
    clearInterval(flapper);
    await dropAgents(machines.flatMap((entry) => entry.agents));
    await host.stop();
  }
}

export async function runMachines(): Promise<{ figures: Figure[] }> {
  const browser = await launchBrowser();
  try {
    const baseline = await measure({ machines: 1, agentsPerMachine: MACHINES * AGENTS, flap: false }, browser);
    const spread = await measure({ machines: MACHINES, agentsPerMachine: AGENTS, flap: true }, browser);
    const total = TOTAL.toLocaleString('en-US');
    const note =
      `${MACHINES} machines × ${AGENTS} agents × ${PENDING} pending (${total}), re-announced every 1 s, ` +
      `one machine's ${AGENTS} agents dropping and reconnecting every ${FLAP_MS / 1000} s (${spread.flaps} flaps in the window), ` +
      `${Math.round(spread.wallMs / 1000)} s window; baseline: the same ${MACHINES * AGENTS} agents and ${total} pending ` +
      `from one machine, nothing flapping, same run`;
    return {
      figures: [
        figure({
          name: 'machines: hub CPU (R17.9)',
          value: round(spread.cpuShare, 1),
          baseline: round(baseline.cpuShare, 1),
          unit: '% of one core',
          budget: 25,
          note,
        }),
        figure({
          name: 'machines: hub RSS peak',
          value: round(spread.peakRssBytes / 2 ** 20, 1),
          baseline: round(baseline.peakRssBytes / 2 ** 20, 1),
          unit: 'MiB',
          note,
        }),
        figure({
          name: 'machines: machine lists sent to a phone',
          value: round(spread.listsPerSecond, 2),
          unit: '/s',
          note: `whole \`machines\` lists (coalesced) while one machine flaps every ${FLAP_MS / 1000} s; ${round(baseline.listsPerSecond, 2)}/s with nothing flapping`,
        }),
        figure({
          name: 'machines: a machine list on the phone',
          value: round(median(spread.machineListMs), 1),
          unit: 'ms',
          note:
            `the page's time on one \`machines\` message (socket message → store → React commit, no paint) with the ` +
            `whole inbox of ${total} open while one machine flaps, median of ${spread.machineListMs.length}; ` +
            `max ${round(Math.max(...spread.machineListMs), 1)} ms`,
        }),
        figure({
          name: 'machines: inbox restore, connect → inbox (R17.9)',
          value: round(spread.restoreMs, 1),
          baseline: round(baseline.restoreMs, 1),
          unit: 'ms',
          budget: 300,
          note: `page load in headless Chromium during the load, socket connect → first commit of the whole inbox (window.__askaway), ${total} pending from ${MACHINES} machines, median of ${RESTORE_RUNS}; baseline from one machine`,
        }),
        figure({
          name: 'machines: inbox restore, connect → inbox painted',
          value: round(spread.paintedMs, 1),
          baseline: round(baseline.paintedMs, 1),
          unit: 'ms',
          note: `the same page loads, to the end of the first frame drawn after that commit (style, layout, paint, and any message handled first), median of ${RESTORE_RUNS}`,
        }),
      ],
    };
  } finally {
    await browser.close();
  }
}

if (isMain(import.meta.url)) await runAlone('machines', runMachines);

// R13.9: a new question's way onto the screen of an open inbox, from the agent's announce to the end of the first
// frame drawn with its row (./support/row-watch.ts), on the installed app and on the plain socket.io page
// (./support/plain-socket-page.ts) against the same host, alternated round by round; with 20 and with 200
// already pending, since an arrival must not cost more in a longer inbox. p50 and p95 of every arrival.
import { type Browser, type BrowserContext, type Page } from '@playwright/test';
import { launchBrowser, pairingInitScript } from './support/browser';
import { figure, round, type Figure } from './support/figures';
import { appStaticDirArgs, startHost, type HostProcess } from './support/host-process';
import { isMain, runAlone } from './support/main-guard';
import { interactionRequest, QUESTION_TITLE } from './support/payloads';
import { startPlainPage, type PlainPage } from './support/plain-socket-page';
import { announceAll, connectRawRuntime, seedPending, type RawRuntimeSocket } from './support/raw-runtime';
import { pairBenchDevice } from './support/remote-client';
import { ROW_WATCH_SETTLE_MS, rowWatchScript, wallClock } from './support/row-watch';
import { median, percentile } from './support/stats';
import { BESIDE_NEIGHBOUR, startBusyNeighbour } from './support/busy-neighbour';

const ROUNDS = Number(process.env.BENCH_ARRIVAL_ROUNDS ?? 5);
/** Questions per round, one after another: each waits for the last one's row and a short pause. */
const PER_ROUND = Number(process.env.BENCH_ARRIVAL_PER_ROUND ?? 20);
const PAUSE_MS = 120;
const LIMIT_RATIO = 1.5;
const APP_ROWS = '[data-testid="inbox.item"]';
const PLAIN_ROWS = '#rows > li';

interface Screen {
  name: 'app' | 'plain';
  page: Page;
  open(): Promise<void>;
}

/** Each round's questions come and go on one connection, as one agent's do. */
async function arrivals(agent: RawRuntimeSocket, screen: Screen, round: number, pending: number): Promise<number[]> {
  await screen.open();
  const rows = screen.name === 'app' ? APP_ROWS : PLAIN_ROWS;
  await screen.page.waitForFunction(
    ([selector, total]) => document.querySelectorAll(selector).length === total,
    [rows, pending] as const,
    { timeout: 60_000 },
  );
  // Settled: the connection's own work (snapshot, cache save) done, as an inbox left open is.
  await screen.page.waitForTimeout(1_000);
  const times: number[] = [];
  const ids: string[] = [];
  for (let index = 0; index < PER_ROUND; index += 1) {
    const id = `arrival-${screen.name}-${pending}-${round}-${index}`;
    const sentAt = wallClock();
    await announceAll(agent, [interactionRequest(id, `arrival-session-${index % 3}`)]);
    await screen.page.waitForFunction((requestId) => window.__rowsSeenAt?.[requestId] !== undefined, id, {
      timeout: 30_000,
      polling: 16,
    });
    // Both readings of the end of its frame in (./support/row-watch.ts), and the pause before the next question.
    await screen.page.waitForTimeout(Math.max(PAUSE_MS, ROW_WATCH_SETTLE_MS));
    const seenAt = await screen.page.evaluate((requestId) => window.__rowsSeenAt?.[requestId] ?? Number.NaN, id);
    times.push(seenAt - sentAt);
    ids.push(id);
  }
  for (const id of ids) await agent.timeout(10_000).emitWithAck('withdraw', { requestId: id });
  await screen.page.waitForFunction(
    ([selector, total]) => document.querySelectorAll(selector).length === total,
    [rows, pending] as const,
    { timeout: 60_000 },
  );
  await screen.page.goto('about:blank');
  return times;
}

async function measure(browser: Browser, pending: number): Promise<{ app: number[]; plain: number[] }> {
  const plain: PlainPage = await startPlainPage();
  const host: HostProcess = await startHost({
    extraArgs: ['--stale-after', '2h', '--allow-origin', plain.origin, ...appStaticDirArgs()],
  });
  const contexts: BrowserContext[] = [];
  const agent = await connectRawRuntime(host.url, host.token, 'arrival-agent');
  try {
    await seedPending(
      host.url,
      host.token,
      Array.from({ length: pending }, (_, index) => interactionRequest(`waiting-${index}`, `session-${index % 4}`)),
    );
    const appContext = await browser.newContext({ viewport: { width: 412, height: 915 } });
    contexts.push(appContext);
    await appContext.addInitScript(pairingInitScript(await pairBenchDevice(host, 'bench-arrival')));
    await appContext.addInitScript(rowWatchScript(APP_ROWS, pending, QUESTION_TITLE));
    const appPage = await appContext.newPage();
    // Installed first: the service worker controls the page, as on a phone that opened it before.
    await appPage.goto(`${host.url}/`);
    await appPage.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
    const plainContext = await browser.newContext({ viewport: { width: 412, height: 915 } });
    contexts.push(plainContext);
    await plainContext.addInitScript(rowWatchScript(PLAIN_ROWS, pending, QUESTION_TITLE));
    const plainPage = await plainContext.newPage();
    const plainUrl = plain.url(host.url, (await pairBenchDevice(host, 'bench-arrival-plain')).credential);
    const screens: Screen[] = [
      { name: 'app', page: appPage, open: () => appPage.goto(`${host.url}/`).then(() => undefined) },
      { name: 'plain', page: plainPage, open: () => plainPage.goto(plainUrl).then(() => undefined) },
    ];
    const times = { app: [] as number[], plain: [] as number[] };
    // The first round of each warms caches and is not counted.
    for (let round = 0; round <= ROUNDS; round += 1) {
      const order = round % 2 === 0 ? screens : [...screens].reverse();
      for (const screen of order) {
        const measured = await arrivals(agent, screen, round, pending);
        if (round > 0) times[screen.name].push(...measured);
      }
    }
    return times;
  } finally {
    for (const context of contexts) await context.close();
    agent.disconnect();
    await host.stop();
    await plain.close();
  }
}

/** Arrival figures for one inbox length; `beside`: measured beside the busy neighbour, named so. */
function arrivalFigures(pending: number, app: number[], plain: number[], beside?: string): Figure[] {
  const samples = `${app.length} arrivals each, ${ROUNDS} rounds alternated, ${pending} already pending`;
  const where = beside === undefined ? '' : `, ${BESIDE_NEIGHBOUR}`;
  console.log(
    `[arrival] ${pending} pending${where}: app p50 ${round(median(app), 1)} p95 ${round(percentile(app, 95), 1)} ms; ` +
      `plain p50 ${round(median(plain), 1)} p95 ${round(percentile(plain, 95), 1)} ms`,
  );
  return (
    [
      ['p50', 50],
      ['p95', 95],
    ] as const
  ).map(([label, p]) =>
    figure({
      name: `arrival: new question → its row on screen, ${pending} pending${where}, ${label} (R13.9)`,
      value: round(percentile(app, p), 1),
      unit: 'ms',
      baseline: round(percentile(plain, p), 1),
      ...(p === 95 ? { budget: LIMIT_RATIO, budgetOn: 'ratio' as const } : {}),
      note: `announce → end of the first frame drawn with the row (every animation frame checked); baseline: the plain socket.io page; ${samples}${beside === undefined ? '' : `; ${beside}`}`,
    }),
  );
}

export async function runInboxArrival(): Promise<{ figures: Figure[] }> {
  const browser = await launchBrowser();
  try {
    const figures: Figure[] = [];
    const p95s: Record<number, number> = {};
    for (const pending of [20, 200]) {
      const { app, plain } = await measure(browser, pending);
      p95s[pending] = percentile(app, 95);
      figures.push(...arrivalFigures(pending, app, plain));
    }
    figures.push(
      figure({
        name: 'arrival: p95 with 200 pending against 20 (R13.9)',
        value: round(p95s[200] ?? Number.NaN, 1),
        unit: 'ms',
        baseline: round(p95s[20] ?? Number.NaN, 1),
        budget: LIMIT_RATIO,
        budgetOn: 'ratio',
        note: 'the same arrivals in a ten times longer inbox: a ratio near 1 means an arrival costs the same',
      }),
    );
    // The same 20-pending inbox with a second busy process: the budget holds under ordinary load too.
    const neighbour = startBusyNeighbour();
    try {
      const { app, plain } = await measure(browser, 20);
      figures.push(...arrivalFigures(20, app, plain, neighbour.note));
    } finally {
      neighbour.stop();
    }
    return { figures };
  } finally {
    await browser.close();
  }
}

if (isMain(import.meta.url)) await runAlone('inbox-arrival', runInboxArrival);

// R13.8: a reload of the installed app with 20 pending, from navigation to the end of the first frame drawn with
// all 20 rows of the live inbox, alternated with the plain socket.io page (./plain-socket-page.ts) doing the same
// against the same host; and where the app's time goes, from the marks it leaves (lib/client/test-hook.ts).
import { type Browser, type Page } from '@playwright/test';
import { pairingInitScript } from './browser';
import { figure, round, type Figure } from './figures';
import { startHost } from './host-process';
import { inboxPaintScript } from './inbox-paint';
import { interactionRequest } from './payloads';
import { startPlainPage } from './plain-socket-page';
import { announceAll, connectRawRuntime } from './raw-runtime';
import { pairBenchDevice } from './remote-client';
import { median } from './stats';

const PENDING = 20;
const LIMIT_RATIO = 1.5;

/** What one reload of the app took, ms since its navigation began. */
interface AppReload {
  painted: number;
  phases: Record<string, number>;
}

/** The app's phases in the order a reload passes them: navigation timing, then its own User Timing marks. */
const PHASES = [
  ['html', 'HTML received (service worker)'],
  ['askaway:cache-read', 'last inbox read from IndexedDB'],
  ['askaway:hydrated', 'React hydrated'],
  ['askaway:cached-shown', 'cached inbox handed to React'],
  ['askaway:live-loaded', "live connection's code loaded (socket.io-client, zod)"],
  ['askaway:connected', 'socket connected'],
  ['askaway:snapshot', 'snapshot parsed and applied'],
  ['committed', 'rows committed'],
  ['painted', 'rows on screen'],
] as const;

function readApp(page: Page): Promise<AppReload> {
  return page.evaluate((total) => {
    const phases: Record<string, number> = {};
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    if (navigation) phases.html = navigation.responseEnd;
    for (const mark of performance.getEntriesByType('mark'))
      if (mark.name.startsWith('askaway:')) phases[mark.name] ??= mark.startTime;
    const commit = window.__askaway?.inboxCommits.find((entry) => entry.count === total);
    if (commit) phases.committed = commit.at;
    const painted = window.__inboxPaintedAt ?? Number.NaN;
    phases.painted = painted;
    return { painted, phases };
  }, PENDING);
}

async function reloadApp(page: Page): Promise<AppReload> {
  await page.reload({ waitUntil: 'commit' });
  await page.waitForFunction(() => window.__inboxPaintedAt !== undefined, undefined, { timeout: 60_000 });
  return readApp(page);
}

async function reloadPlain(page: Page): Promise<number> {
  await page.reload({ waitUntil: 'commit' });
  await page.waitForFunction(() => window.__plainPaintedAt !== undefined, undefined, { timeout: 60_000 });
  return page.evaluate(() => window.__plainPaintedAt ?? Number.NaN);
}

export async function runReloadFloor(browser: Browser, runs: number): Promise<Figure[]> {
  const plain = await startPlainPage(PENDING);
  // BENCH_APP_STATIC_DIR: another build of the app (say, main's out/), as bench/lighthouse.ts takes it.
  const appStaticDir = process.env.BENCH_APP_STATIC_DIR;
  const host = await startHost({
    extraArgs: [
      '--stale-after',
      '2h',
      '--allow-origin',
      plain.origin,
      ...(appStaticDir ? ['--static-dir', appStaticDir] : []),
    ],
  });
  const agent = await connectRawRuntime(host.url, host.token);
  try {
    // The agent stays connected while its questions wait, as a real one does (no "waiting for" line, R17.6).
    await announceAll(
      agent,
      Array.from({ length: PENDING }, (_, index) => interactionRequest(`reload-${index}`, `session-${index % 4}`)),
    );
    const appContext = await browser.newContext({ viewport: { width: 412, height: 915 } });
    await appContext.addInitScript(pairingInitScript(await pairBenchDevice(host, 'bench-reload')));
    await appContext.addInitScript(inboxPaintScript(PENDING));
    const app = await appContext.newPage();
    await app.goto(`${host.url}/`);
    // Installed: the service worker controls the page and the inbox is saved for the next open (R9.13).
    await app.waitForFunction(
      (total) =>
        navigator.serviceWorker.controller !== null &&
        window.__askaway?.pendingCount === total &&
        window.__askaway.cacheSavedAt !== null,
      PENDING,
      { timeout: 60_000 },
    );
    const plainContext = await browser.newContext({ viewport: { width: 412, height: 915 } });
    const floor = await plainContext.newPage();
    await floor.goto(plain.url(host.url, (await pairBenchDevice(host, 'bench-plain')).credential));
    await floor.waitForFunction(() => window.__plainPaintedAt !== undefined, undefined, { timeout: 60_000 });

    // Discarded: the first of each warms caches (the worker's, the HTTP cache, the host's).
    await reloadApp(app);
    await reloadPlain(floor);
    const apps: AppReload[] = [];
    const floors: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      apps.push(await reloadApp(app));
      floors.push(await reloadPlain(floor));
    }
    await appContext.close();
    await plainContext.close();

    const value = round(median(apps.map((entry) => entry.painted)), 1);
    const baseline = round(median(floors), 1);
    const breakdown = PHASES.map(([key, label]) => {
      const times = apps.map((entry) => entry.phases[key]).filter((time): time is number => time !== undefined);
      return `${label} ${times.length === apps.length ? Math.round(median(times)) : '—'}`;
    }).join(', ');
    const figures = [
      figure({
        name: 'restore: reload with 20 pending, navigation → all rows on screen (R13.8)',
        value,
        unit: 'ms',
        baseline,
        budget: LIMIT_RATIO,
        budgetOn: 'ratio',
        note:
          `median of ${runs}, alternated; installed app (service worker, cached inbox) to the first frame drawn with ` +
          `the live rows; baseline: a plain page with socket.io-client that connects, takes the snapshot and renders ` +
          `${PENDING} rows (bench/support/plain-socket-page.ts); app phases, ms since navigation (medians): ${breakdown}`,
      }),
      ...PHASES.filter(([key]) => key !== 'painted').map(([key, label]) =>
        figure({
          name: `restore: reload with 20 pending, navigation → ${label}`,
          value: round(median(apps.map((entry) => entry.phases[key] ?? Number.NaN)), 1),
          unit: 'ms',
        }),
      ),
    ];
    console.log(
      `[restore] reload, app / plain page, ms: ${apps.map((entry) => Math.round(entry.painted)).join(' ')} / ${floors.map(Math.round).join(' ')}`,
    );
    console.log(`[restore] app phases (medians, ms since navigation): ${breakdown}`);
    return figures;
  } finally {
    agent.disconnect();
    await host.stop();
    await plain.close();
  }
}

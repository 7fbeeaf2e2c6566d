// R13.8: a reload of the installed app with 20 pending, measured from outside as a person sees it: from the
// moment the reload is asked for (the old page's unload included) to the end of the first frame drawn with all 20
// rows (./row-watch.ts, every animation frame checked), alternated with the plain socket.io page
// (./plain-socket-page.ts) doing the same against the same host, read the same way; and where the app's time
// goes, from the marks it leaves (lib/client/test-hook.ts).
import { type Browser, type Page } from '@playwright/test';
import { pairingInitScript } from './browser';
import { figure, round, type Figure } from './figures';
import { appStaticDirArgs, startHost } from './host-process';
import { interactionRequest } from './payloads';
import { startPlainPage } from './plain-socket-page';
import { announceAll, connectRawRuntime } from './raw-runtime';
import { pairBenchDevice } from './remote-client';
import { ROW_WATCH_SETTLE_MS, rowWatchScript, wallClock } from './row-watch';
import { median } from './stats';

const PENDING = 20;
const LIMIT_RATIO = 1.5;
const APP_ROWS = '[data-testid="inbox.item"]';
const PLAIN_ROWS = '#rows > li';

/** What one reload of the app took: `painted` from the reload's start, the phases ms since its navigation began. */
interface AppReload {
  painted: number;
  navigationStart: number;
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
  ['rows', 'all rows on screen'],
] as const;

/** Each reload starts from pages left alone this long: the other page's last load done, as a person finds it. */
const SETTLE_MS = 1_000;

/** Reloads `page` and waits for all rows on screen; ms from the reload's start, and the navigation's own start. */
async function reloadAndWatch(page: Page): Promise<{ painted: number; navigationStart: number }> {
  // Without it the plain page, reloaded right after the app, shared the machine with the app's work after its
  // rows (the live code, the cache save): 131–173 ms then against 69–91 ms after its own reload.
  await page.waitForTimeout(SETTLE_MS);
  const startedAt = wallClock();
  await page.reload({ waitUntil: 'commit' });
  await page.waitForFunction(() => window.__allRowsAt !== undefined, undefined, { timeout: 60_000, polling: 16 });
  await page.waitForTimeout(ROW_WATCH_SETTLE_MS);
  const { allRowsAt, timeOrigin } = await page.evaluate(() => ({
    allRowsAt: window.__allRowsAt ?? Number.NaN,
    timeOrigin: performance.timeOrigin,
  }));
  return { painted: allRowsAt - startedAt, navigationStart: timeOrigin - startedAt };
}

async function reloadApp(page: Page): Promise<AppReload> {
  const { painted, navigationStart } = await reloadAndWatch(page);
  const phases = await page.evaluate(() => {
    const marks: Record<string, number> = {};
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    if (navigation) marks.html = navigation.responseEnd;
    for (const mark of performance.getEntriesByType('mark'))
      if (mark.name.startsWith('askaway:')) marks[mark.name] ??= mark.startTime;
    if (window.__allRowsAt !== undefined) marks.rows = window.__allRowsAt - performance.timeOrigin;
    return marks;
  });
  return { painted, navigationStart, phases };
}

export async function runReloadFloor(browser: Browser, runs: number): Promise<Figure[]> {
  const plain = await startPlainPage();
  const host = await startHost({
    extraArgs: ['--stale-after', '2h', '--allow-origin', plain.origin, ...appStaticDirArgs()],
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
    await appContext.addInitScript(rowWatchScript(APP_ROWS, PENDING));
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
    await plainContext.addInitScript(rowWatchScript(PLAIN_ROWS, PENDING));
    const floor = await plainContext.newPage();
    await floor.goto(plain.url(host.url, (await pairBenchDevice(host, 'bench-plain')).credential));
    await floor.waitForFunction(() => window.__allRowsAt !== undefined, undefined, { timeout: 60_000 });

    // Discarded: the first of each warms caches (the worker's, the HTTP cache, the host's).
    await reloadApp(app);
    await reloadAndWatch(floor);
    const apps: AppReload[] = [];
    const floors: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      // Alternated in order too, so that neither always follows the other.
      if (run % 2 === 0) {
        apps.push(await reloadApp(app));
        floors.push((await reloadAndWatch(floor)).painted);
      } else {
        floors.push((await reloadAndWatch(floor)).painted);
        apps.push(await reloadApp(app));
      }
    }
    await appContext.close();
    await plainContext.close();

    const value = round(median(apps.map((entry) => entry.painted)), 1);
    const baseline = round(median(floors), 1);
    const ratios = apps.map((entry, index) => entry.painted / (floors[index] ?? Number.NaN));
    const breakdown = PHASES.map(([key, label]) => {
      const times = apps.map((entry) => entry.phases[key]).filter((time): time is number => time !== undefined);
      return `${label} ${times.length === apps.length ? Math.round(median(times)) : '—'}`;
    }).join(', ');
    const unload = Math.round(median(apps.map((entry) => entry.navigationStart)));
    const figures = [
      figure({
        name: 'restore: reload with 20 pending, reload asked → all rows on screen (R13.8)',
        value,
        unit: 'ms',
        baseline,
        budget: LIMIT_RATIO,
        budgetOn: 'ratio',
        note:
          `median of ${runs} pairs, alternated (pair ratios ${ratios.map((ratio) => ratio.toFixed(2)).join(' ')}); ` +
          `installed app (service worker, cached inbox), timed from outside: page.reload() → the first frame drawn ` +
          `with all ${PENDING} rows (every animation frame checked); baseline: a plain page with socket.io-client ` +
          `that connects, takes the snapshot and renders ${PENDING} rows (bench/support/plain-socket-page.ts), ` +
          `timed the same way; reload → the new page's navigation ${unload} ms; app phases, ms since its navigation ` +
          `(medians): ${breakdown}`,
      }),
      ...PHASES.filter(([key]) => key !== 'rows').map(([key, label]) =>
        figure({
          name: `restore: reload with 20 pending, navigation → ${label}`,
          value: round(median(apps.map((entry) => entry.phases[key] ?? Number.NaN)), 1),
          unit: 'ms',
        }),
      ),
    ];
    console.log(
      `[restore] reload → all rows on screen, app / plain page, ms: ${apps.map((entry) => Math.round(entry.painted)).join(' ')} / ${floors.map(Math.round).join(' ')}`,
    );
    console.log(
      `[restore] reload → navigation (app): ${apps.map((entry) => Math.round(entry.navigationStart)).join(' ')}`,
    );
    console.log(`[restore] app phases (medians, ms since navigation): ${breakdown}`);
    return figures;
  } finally {
    agent.disconnect();
    await host.stop();
    await plain.close();
  }
}

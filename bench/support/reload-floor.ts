// R13.8: a reload of the installed app with 20 pending, measured from outside as a person sees it: from the
// moment the reload is asked for (the old page's unload included) to the end of the first frame drawn with the
// text of all 20 rows, read from each row every animation frame (./row-watch.ts: a row that `content-visibility`
// skipped is laid out when read, as scrolling to it would), alternated with the plain socket.io page
// (./plain-socket-page.ts) doing the same against the same host, read the same way; and where the app's time
// goes, from the marks it leaves (lib/client/test-hook.ts).
import { type Browser, type Page } from '@playwright/test';
import { BESIDE_NEIGHBOUR } from './busy-neighbour';
import { figure, round, type Figure } from './figures';
import { openReloadPages, PENDING, reloadAndWatch, type Reload } from './reload-pages';
import { median } from './stats';

const LIMIT_RATIO = 1.5;

/** A reload of the app, with its phases in ms since its navigation began. */
interface AppReload extends Reload {
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
  ['rows', "all rows' text on screen"],
] as const;

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

/** `lowest–highest`, rounded: a figure's range across its pairs. */
function range(values: readonly number[], digits = 0): string {
  return `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;
}

/**
 * `pairs` reloads of each page, alternated; `beside`: the note of a busy neighbour running throughout
 * (./busy-neighbour.ts), whose figures are named apart so results.json keeps both.
 */
export async function runReloadFloor(browser: Browser, pairs: number, beside?: string): Promise<Figure[]> {
  const { app, plain: floor, close } = await openReloadPages(browser);
  try {
    // Discarded: the first of each warms caches (the worker's, the HTTP cache, the host's).
    await reloadApp(app);
    await reloadAndWatch(floor);
    const apps: AppReload[] = [];
    const floors: number[] = [];
    for (let run = 0; run < pairs; run += 1) {
      // Alternated in order too, so that neither always follows the other.
      if (run % 2 === 0) {
        apps.push(await reloadApp(app));
        floors.push((await reloadAndWatch(floor)).painted);
      } else {
        floors.push((await reloadAndWatch(floor)).painted);
        apps.push(await reloadApp(app));
      }
    }

    const painted = apps.map((entry) => entry.painted);
    const ratios = painted.map((time, index) => time / (floors[index] ?? Number.NaN));
    const breakdown = PHASES.map(([key, label]) => {
      const times = apps.map((entry) => entry.phases[key]).filter((time): time is number => time !== undefined);
      return `${label} ${times.length === apps.length ? Math.round(median(times)) : '—'}`;
    }).join(', ');
    const unload = Math.round(median(apps.map((entry) => entry.navigationStart)));
    const where = beside === undefined ? '' : `, ${BESIDE_NEIGHBOUR}`;
    const figures = [
      figure({
        name: `restore: reload with 20 pending, reload asked → all rows on screen${where} (R13.8)`,
        value: round(median(painted), 1),
        unit: 'ms',
        baseline: round(median(floors), 1),
        budget: LIMIT_RATIO,
        budgetOn: 'ratio',
        note:
          `median of ${pairs} pairs, alternated: app ${range(painted)} ms, plain page ${range(floors)} ms, pair ratios ` +
          `${range(ratios, 2)} (median ${median(ratios).toFixed(2)}: ${ratios.map((ratio) => ratio.toFixed(2)).join(' ')}); ` +
          `installed app (service worker, cached inbox), timed from outside: page.reload() → the first frame drawn ` +
          `with the text of all ${PENDING} rows, read from every row every animation frame (innerText, so rows ` +
          `content-visibility skipped are laid out when read); baseline: a plain page with socket.io-client that ` +
          `connects, takes the snapshot and renders ${PENDING} rows (bench/support/plain-socket-page.ts), timed and ` +
          `read the same way; reload → the new page's navigation ${unload} ms; app phases, ms since its navigation ` +
          `(medians): ${breakdown}${beside === undefined ? '' : `; ${beside}`}`,
      }),
      // The phases once, from the quiet run: beside the neighbour they are in the note.
      ...(beside === undefined
        ? PHASES.filter(([key]) => key !== 'rows').map(([key, label]) =>
            figure({
              name: `restore: reload with 20 pending, navigation → ${label}`,
              value: round(median(apps.map((entry) => entry.phases[key] ?? Number.NaN)), 1),
              unit: 'ms',
            }),
          )
        : []),
    ];
    console.log(
      `[reload${where}] reload → all rows' text on screen, app / plain page, ms: ${painted.map(Math.round).join(' ')} / ` +
        `${floors.map(Math.round).join(' ')}; pair ratios ${ratios.map((ratio) => ratio.toFixed(2)).join(' ')}`,
    );
    console.log(
      `[reload${where}] reload → navigation (app): ${apps.map((entry) => Math.round(entry.navigationStart)).join(' ')}`,
    );
    console.log(`[reload${where}] app phases (medians, ms since navigation): ${breakdown}`);
    return figures;
  } finally {
    await close();
  }
}

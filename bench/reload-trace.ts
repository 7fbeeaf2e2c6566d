// Diagnostic for R13.8: where a reload's main-thread time goes before all 20 rows' text is on screen. Opens the
// two pages bench/reload.ts reloads (./support/reload-pages.ts), warms each with one reload, then records a Chromium
// trace and a CPU profile of BENCH_TRACE_RELOADS (3) more reloads of each, and prints, from the new page's
// navigation to its rows: the renderer main thread's tasks (wall and CPU time, and what each mostly was), the
// time by kind of work (self time, nested events subtracted), and the JavaScript by function and by file.
// BENCH_TRACE_DIR=<dir> keeps the raw traces and profiles; BENCH_NEIGHBOUR=1 runs beside the busy neighbour.
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type Page } from '@playwright/test';
import { launchBrowser } from './support/browser';
import { startBusyNeighbour } from './support/busy-neighbour';
import { formatSummary, summarize, type CpuProfile } from './support/cpu-profile-summary';
import { isMain } from './support/main-guard';
import { openReloadPages, reloadAndWatch } from './support/reload-pages';
import { type TraceEvent } from './support/trace-event';

const RELOADS = Number(process.env.BENCH_TRACE_RELOADS ?? 3);
const CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'blink.user_timing',
  'v8',
  'v8.execute',
  'disabled-by-default-devtools.timeline',
  'loading',
];

/** One complete event on a thread, with what its children took out of it. */
interface Span {
  event: TraceEvent;
  end: number;
  childUs: number;
}

/** A task the scheduler runs, as two events of the same extent (the outer one's category is `toplevel`). */
const TASKS = new Set(['ThreadControllerImpl::RunTask', 'RunTask']);

function shortUrl(url: string): string {
  return url.replace(/^https?:\/\/[^/]+/, '').replace(/^\/_next\/static\/chunks\//, '') || url;
}

/** What kind of work an event is, as the tables group it. */
function kindOf(event: TraceEvent): string {
  const data = event.args?.data ?? {};
  const url = typeof data.url === 'string' ? data.url : '';
  if (event.name === 'EvaluateScript' || event.name === 'v8.evaluateModule') return `evaluate ${shortUrl(url)}`;
  if (event.name === 'v8.compile' || event.name === 'v8.compileModule')
    return `compile ${shortUrl(typeof data.fileName === 'string' ? data.fileName : url)}`;
  if (event.name === 'FunctionCall') return `call ${shortUrl(url)} ${String(data.functionName ?? '')}`.trim();
  if (event.name === 'EventDispatch') return `event ${String(data.type ?? '')}`;
  return event.name;
}

function threadNames(events: readonly TraceEvent[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const event of events)
    if (event.ph === 'M' && event.name === 'thread_name')
      names.set(`${event.pid}:${event.tid}`, event.args?.name ?? '');
  return names;
}

/** The renderer main thread that parsed `url` in [from, to] µs, by its ParseHTML events. */
function mainThreadOf(events: readonly TraceEvent[], url: string, from: number): string | undefined {
  const names = threadNames(events);
  const parse = events.find((event) => {
    const begin = event.args?.beginData as { url?: string } | undefined;
    return event.name === 'ParseHTML' && event.ts >= from && begin?.url?.startsWith(url) === true;
  });
  const key = parse ? `${parse.pid}:${parse.tid}` : undefined;
  return key && names.get(key) === 'CrRendererMain' ? key : undefined;
}

/** Self time per kind, and the thread's top-level tasks, within [from, to] µs. */
function analyse(events: readonly TraceEvent[], thread: string, from: number, to: number) {
  const own = events
    .filter((event) => `${event.pid}:${event.tid}` === thread && event.ph === 'X' && event.ts >= from && event.ts < to)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const self = new Map<string, number>();
  const tasks: { at: number; wallUs: number; cpuUs: number; kinds: Map<string, number> }[] = [];
  const stack: Span[] = [];
  const close = (span: Span) => {
    const kind = kindOf(span.event);
    const us = Math.max(0, (span.event.dur ?? 0) - span.childUs);
    if (!TASKS.has(span.event.name)) {
      self.set(kind, (self.get(kind) ?? 0) + us);
      const task = tasks.at(-1);
      if (task) task.kinds.set(kind, (task.kinds.get(kind) ?? 0) + us);
    }
  };
  for (const event of own) {
    while (stack.length > 0 && (stack.at(-1)?.end ?? 0) <= event.ts) close(stack.pop() as Span);
    const parent = stack.at(-1);
    if (parent) parent.childUs += event.dur ?? 0;
    if (stack.length === 0 && TASKS.has(event.name))
      tasks.push({ at: event.ts, wallUs: event.dur ?? 0, cpuUs: event.tdur ?? 0, kinds: new Map() });
    stack.push({ event, end: event.ts + (event.dur ?? 0), childUs: 0 });
  }
  while (stack.length > 0) close(stack.pop() as Span);
  return { self, tasks };
}

/** The profile's samples that fall in [from, to] µs (the profile's clock is the trace's). */
function clip(profile: CpuProfile, from: number, to: number): CpuProfile {
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let at = profile.startTime;
  let last = from;
  (profile.samples ?? []).forEach((sample, index) => {
    at += profile.timeDeltas?.[index] ?? 0;
    if (at < from || at >= to) return;
    samples.push(sample);
    timeDeltas.push(at - last);
    last = at;
  });
  return { ...profile, startTime: from, endTime: to, samples, timeDeltas };
}

interface Traced {
  tasks: string[];
  self: Map<string, number>;
  rowsMs: number;
}

/** Reloads `page` under a trace of `categories`; the trace's events, and the window navigation → rows in µs. */
async function recordReload(
  browser: Browser,
  page: Page,
  categories: string[],
  file: string,
): Promise<{ events: TraceEvent[]; url: string; from: number; to: number; rowsMs: number }> {
  const url = page.url().replace(/#.*$/, '');
  await browser.startTracing(page, { categories });
  await reloadAndWatch(page);
  const rowsMs = await page.evaluate(() => (window.__allRowsAt ?? Number.NaN) - performance.timeOrigin);
  const text = (await browser.stopTracing()).toString('utf8');
  const dir = process.env.BENCH_TRACE_DIR;
  if (dir) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${file}.json`), text);
  }
  const events = (JSON.parse(text) as { traceEvents: TraceEvent[] }).traceEvents;
  const navigation = events.find(
    (event) =>
      event.name === 'navigationStart' &&
      String((event.args?.data as { documentLoaderURL?: string } | undefined)?.documentLoaderURL ?? '').startsWith(url),
  );
  if (!navigation) throw new Error(`${file}: no navigationStart for ${url} in the trace`);
  return { events, url, from: navigation.ts, to: navigation.ts + rowsMs * 1000, rowsMs };
}

/** One reload of `page` traced from its navigation to its rows. */
async function traceReload(browser: Browser, page: Page, label: string, index: number): Promise<Traced> {
  const { events, url, from, to, rowsMs } = await recordReload(browser, page, CATEGORIES, `${label}-${index}`);
  const thread = mainThreadOf(events, url, from);
  if (!thread) throw new Error(`${label}: no renderer main thread parsed ${url}`);
  const { self, tasks } = analyse(events, thread, from, to);
  const lines = tasks
    .filter((task) => task.wallUs >= 1000)
    .map((task) => {
      const top = [...task.kinds]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([kind, us]) => `${kind} ${(us / 1000).toFixed(1)}`)
        .join(', ');
      return `  at ${((task.at - from) / 1000).toFixed(0).padStart(4)} ms: ${(task.wallUs / 1000).toFixed(1).padStart(6)} ms wall, ${(task.cpuUs / 1000).toFixed(1).padStart(6)} ms CPU — ${top}`;
    });
  const cpu = tasks.reduce((sum, task) => sum + task.cpuUs, 0);
  const wall = tasks.reduce((sum, task) => sum + task.wallUs, 0);
  lines.unshift(
    `${label} #${index}: navigation → rows ${rowsMs.toFixed(0)} ms; ${tasks.length} tasks, ` +
      `${(wall / 1000).toFixed(1)} ms wall, ${(cpu / 1000).toFixed(1)} ms CPU; tasks over 1 ms:`,
  );
  return { tasks: lines, self, rowsMs };
}

/**
 * One reload of `page` under V8's sampling profiler, apart from the full trace (the profiler slows what it samples:
 * its samples say where JavaScript time goes, not how long things take); a trace of User Timing only places it.
 */
async function profileReload(browser: Browser, page: Page, label: string, index: number): Promise<CpuProfile> {
  const session = await page.context().newCDPSession(page);
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 100 });
  await session.send('Profiler.start');
  const { from, to } = await recordReload(browser, page, ['blink.user_timing'], `${label}-profiled-${index}`);
  const { profile } = (await session.send('Profiler.stop')) as { profile: CpuProfile };
  await session.detach();
  const dir = process.env.BENCH_TRACE_DIR;
  if (dir) fs.writeFileSync(path.join(dir, `${label}-${index}.cpuprofile`), JSON.stringify(profile));
  return clip(profile, from, to);
}

function printKinds(label: string, traced: readonly Traced[]): void {
  const total = new Map<string, number>();
  for (const entry of traced) for (const [kind, us] of entry.self) total.set(kind, (total.get(kind) ?? 0) + us);
  console.log(`\n${label}: main-thread self time by kind before the rows, ms per reload (mean of ${traced.length})`);
  for (const [kind, us] of [...total].sort((a, b) => b[1] - a[1]).slice(0, 30))
    console.log(`${(us / 1000 / traced.length).toFixed(1).padStart(8)}  ${kind}`);
}

async function main(): Promise<void> {
  const neighbour = process.env.BENCH_NEIGHBOUR ? startBusyNeighbour() : undefined;
  const browser = await launchBrowser();
  const pages = await openReloadPages(browser);
  try {
    await reloadAndWatch(pages.app);
    await reloadAndWatch(pages.plain);
    for (const [label, page] of [
      ['app', pages.app],
      ['plain', pages.plain],
    ] as const) {
      const traced: Traced[] = [];
      for (let index = 0; index < RELOADS; index += 1) traced.push(await traceReload(browser, page, label, index));
      for (const entry of traced) console.log(entry.tasks.join('\n'));
      printKinds(label, traced);
      const profiles: CpuProfile[] = [];
      for (let index = 0; index < RELOADS; index += 1) profiles.push(await profileReload(browser, page, label, index));
      {
        console.log(`\n${label}: JavaScript before the rows, ${profiles.length} reloads added up, by function`);
        console.log(formatSummary(summarize(profiles, 'function'), { per: 1, top: 25 }));
        console.log(`${label}: by file`);
        console.log(formatSummary(summarize(profiles, 'file'), { per: 1, top: 15 }));
      }
    }
  } finally {
    await pages.close();
    await browser.close();
    neighbour?.stop();
  }
}

if (isMain(import.meta.url)) await main();

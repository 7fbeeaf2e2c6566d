// Diagnostic: does V8 get a code cache for the scripts of a repeat visit? Opens the paired inbox with 20
// pending as bench/lighthouse.ts does (service worker installed, inbox saved), then records a Chromium trace
// of one more visit and prints, per script, V8's compile events: whether it consumed a code cache, how big,
// whether it was rejected, and the compile/evaluate time. The same for the hello-world page (HTTP cache).
// BENCH_APP_STATIC_DIR as in lighthouse.ts; BENCH_TRACE_DIR=<dir> keeps the raw traces; BENCH_TRACE_DEBUGGER=1
// turns the debugger on as Lighthouse does; BENCH_TRACE_LIGHTHOUSE=1 reads Lighthouse's own trace of the visit;
// BENCH_TRACE_EXTRA_VISITS=<n> adds visits before the traced one. Findings: docs/PERFORMANCE.md, "Instant open".
import fs from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer, { type Page } from 'puppeteer-core';
import { chromiumPath, pairingInitScript } from './support/browser';
import { buildHelloWorld } from './support/hello-world';
import { appStaticDirArgs, startHost } from './support/host-process';
import { installApp } from './support/installed-app';
import { isMain } from './support/main-guard';
import { interactionRequest } from './support/payloads';
import { pairBenchDevice } from './support/remote-client';
import { announceAll, connectRawRuntime } from './support/raw-runtime';
import { type TraceEvent } from './support/trace-event';

const PENDING = 20;
const CATEGORIES = [
  'devtools.timeline',
  'v8',
  'v8.execute',
  'disabled-by-default-v8.compile',
  'disabled-by-default-devtools.timeline',
  'ServiceWorker',
];

interface ScriptRow {
  url: string;
  compileMs: number;
  evaluateMs: number;
  consumed: number;
  rejected: boolean;
  produced: number;
  details: Set<string>;
}

function shortUrl(url: string): string {
  return url.replace(/^https?:\/\/[^/]+/, '').slice(0, 70);
}

function summarise(events: readonly TraceEvent[]): ScriptRow[] {
  const rows = new Map<string, ScriptRow>();
  const row = (url: string) => {
    let found = rows.get(url);
    if (!found) {
      found = { url, compileMs: 0, evaluateMs: 0, consumed: 0, rejected: false, produced: 0, details: new Set() };
      rows.set(url, found);
    }
    return found;
  };
  for (const event of events) {
    const data = event.args?.data ?? {};
    const url = typeof data.url === 'string' ? data.url : typeof data.fileName === 'string' ? data.fileName : '';
    if (!/\.js(\?|$)/.test(url)) continue;
    const ms = (event.dur ?? 0) / 1000;
    if (event.name === 'v8.compile' || event.name === 'v8.compileModule') {
      const entry = row(url);
      entry.compileMs += ms;
      if (typeof data.consumedCacheSize === 'number') entry.consumed += data.consumedCacheSize;
      if (data.cacheRejected === true) entry.rejected = true;
      for (const key of ['cacheKind', 'cacheConsumeOptions', 'cacheProduceOptions', 'streamed', 'notStreamedReason'])
        if (data[key] !== undefined) entry.details.add(`${key}=${String(data[key])}`);
    } else if (event.name === 'v8.produceCache' || event.name === 'v8.produceModuleCache') {
      const entry = row(url);
      if (typeof data.producedCacheSize === 'number') entry.produced += data.producedCacheSize;
    } else if (event.name === 'EvaluateScript' || event.name === 'v8.evaluateModule') {
      row(url).evaluateMs += ms;
    }
  }
  return [...rows.values()];
}

async function plainTrace(url: string, page: Page, label: string): Promise<string> {
  // BENCH_TRACE_DEBUGGER=1: the debugger on, as Lighthouse has it (for async stacks of network initiators).
  if (process.env.BENCH_TRACE_DEBUGGER) {
    const session = await page.createCDPSession();
    await session.send('Debugger.enable');
    await session.send('Debugger.setAsyncCallStackDepth', { maxDepth: 8 });
  }
  // BENCH_TRACE_PROFILE=<dir>: a CPU profile of each visit too, <label>.cpuprofile (CPU throttled 4×, as
  // Lighthouse simulates). The profiler, like the debugger, makes consuming a code cache cost main-thread time.
  const profileDir = process.env.BENCH_TRACE_PROFILE;
  const profiler = profileDir ? await page.createCDPSession() : undefined;
  if (profiler) {
    await profiler.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await profiler.send('Profiler.enable');
    await profiler.send('Profiler.setSamplingInterval', { interval: 200 });
    await profiler.send('Profiler.start');
  }
  await page.tracing.start({ categories: CATEGORIES });
  await page.goto(url, { waitUntil: 'load' });
  // Everything after load too: the app until its live inbox is in (its socket is not network activity
  // that settles), then any page until the network is quiet.
  await page.waitForFunction(() => window.__askaway === undefined || window.__askaway.state.host.hasSnapshot, {
    timeout: 60_000,
  });
  await page.waitForNetworkIdle({ idleTime: 500, timeout: 60_000 });
  const buffer = await page.tracing.stop();
  if (profiler && profileDir) {
    const { profile } = await profiler.send('Profiler.stop');
    fs.mkdirSync(profileDir, { recursive: true });
    fs.writeFileSync(path.join(profileDir, `${label}.cpuprofile`), JSON.stringify(profile));
  }
  if (!buffer) throw new Error('no trace');
  return Buffer.from(buffer).toString('utf8');
}

/** The trace Lighthouse itself records (mobile preset, repeat visit), and its main-thread breakdown. */
async function lighthouseTrace(url: string, port: number, page: Page): Promise<string> {
  const result = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: true },
    undefined,
    page,
  );
  if (!result) throw new Error('Lighthouse returned no result');
  const audit = (id: string) => result.lhr.audits[id];
  console.log(
    `[lighthouse] TBT ${Math.round(audit('total-blocking-time')?.numericValue ?? NaN)} ms, ` +
      `LCP ${Math.round(audit('largest-contentful-paint')?.numericValue ?? NaN)} ms, ` +
      `breakdown ${JSON.stringify(audit('mainthread-work-breakdown')?.details)}`,
  );
  return JSON.stringify(result.artifacts.Trace);
}

async function traceVisit(url: string, prepare: (page: Page) => Promise<void>, label: string): Promise<void> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? chromiumPath(),
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
    logLevel: 'silent',
  });
  try {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
    const page = await browser.newPage();
    await prepare(page);
    await page.goto('about:blank');
    const text = process.env.BENCH_TRACE_LIGHTHOUSE
      ? await lighthouseTrace(url, chrome.port, page)
      : await plainTrace(url, page, label);
    await browser.disconnect();
    const dir = process.env.BENCH_TRACE_DIR;
    if (dir) {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `${label}.json`), text);
    }
    const parsed = JSON.parse(text) as { traceEvents: TraceEvent[] };
    const rows = summarise(parsed.traceEvents);
    let compile = 0;
    let consumed = 0;
    console.log(`\n== ${label}`);
    for (const entry of rows) {
      compile += entry.compileMs;
      consumed += entry.consumed;
      console.log(
        `${shortUrl(entry.url).padEnd(60)} compile ${entry.compileMs.toFixed(1).padStart(6)} ms, eval ${entry.evaluateMs.toFixed(1).padStart(6)} ms, ` +
          `cache consumed ${String(entry.consumed).padStart(7)} B${entry.rejected ? ' REJECTED' : ''}, produced ${entry.produced} B  ${[...entry.details].join(' ')}`,
      );
    }
    console.log(`total compile ${compile.toFixed(1)} ms, cache consumed ${consumed} B`);
  } finally {
    chrome.kill();
  }
}

async function main(): Promise<void> {
  const hello = await buildHelloWorld({ served: true });
  const app = await startHost({
    extraArgs: ['--stale-after', '2h', ...appStaticDirArgs()],
  });
  const helloHost = await startHost({ extraArgs: ['--static-dir', hello.outDir] });
  const agent = await connectRawRuntime(app.url, app.token);
  try {
    await announceAll(
      agent,
      Array.from({ length: PENDING }, (_, index) => interactionRequest(`lh-${index}`, `session-lh-${index % 4}`)),
    );
    const pairing = pairingInitScript(await pairBenchDevice(app, 'bench-trace')).content;
    const extraVisits = Number(process.env.BENCH_TRACE_EXTRA_VISITS ?? 0);
    await traceVisit(
      `${app.url}/`,
      async (page) => {
        await page.evaluateOnNewDocument(pairing);
        await installApp(page, `${app.url}/`, PENDING, extraVisits + 1);
      },
      'inbox-repeat',
    );
    await traceVisit(
      `${helloHost.url}/`,
      async (page) => {
        await page.goto(`${helloHost.url}/`, { waitUntil: 'load' });
      },
      'hello-repeat',
    );
  } finally {
    agent.disconnect();
    await Promise.all([app.stop(), helloHost.stop()]);
    hello.dispose();
  }
}

if (isMain(import.meta.url)) await main();

// R13.5 and R13.7: Lighthouse 12 with its mobile preset (simulated slow 4G, CPU 4× slower, a phone's screen)
// beside a hello-world Next page built from the same node_modules in the same run. Everything is served by an
// Askaway host (same HTTP stack, CSP, precompressed files) to Debian's Chromium. Three runs, alternated, medians:
// - repeat visit of the paired inbox with 20 pending: what tapping the home-screen icon or a notification opens.
//   Its service worker and the inbox it last saw are on the device; hello world has its HTTP cache. Budgets
//   (R13.5): LCP ≤ 1.25× hello world's, score ≥ hello world's − 0.03, and TBT ≤ 1.5× the same hello world
//   installed as a PWA with the app's own Workbox service worker (precache on install, pages and scripts served
//   cache-first), whose HTML paints as early as ours: TBT counts only after the first paint, and hello world's
//   network-served HTML puts its long tasks before it. Plain hello world's TBT is printed as information.
// - first visits (Lighthouse clears storage and cache), what scanning the QR code opens: `/pair#code=…` with a
//   fresh code, and `/` on a device that never paired. Budget (R13.7): LCP ≤ 1.25× hello world's first visit.
//   The paired inbox's first visit (nothing cached, it waits for the socket) is kept as information.
// Then R13.7's first visits again (and hello world's, their baseline) beside a CPU-bound neighbour on one core
// (./support/busy-neighbour.ts), as on a shared machine or a busy phone; results.json keeps both under their own names.
// The script prints the figures and whether each budget holds; nothing here is a test assertion.
import fs from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { chromiumPath, pairingInitScript } from './support/browser';
import { type Figure } from './support/figures';
import { buildHelloWorld } from './support/hello-world';
import { startBusyNeighbour } from './support/busy-neighbour';
import {
  besideNeighbourFigures,
  emptySamples,
  lighthouseFigures,
  printVerdicts,
  SUBJECT_VISITS,
  type Sample,
  type Subject,
  type Visit,
} from './support/lighthouse-figures';
import { appStaticDirArgs, startHost } from './support/host-process';
import { installApp } from './support/installed-app';
import { isMain, runAlone } from './support/main-guard';
import { interactionRequest } from './support/payloads';
import { pairBenchDevice } from './support/remote-client';
import { mintPairingCode, readAdminToken } from '../lib/host/test-support/devices';
import { announceAll, connectRawRuntime, type RawRuntimeSocket } from './support/raw-runtime';

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const PENDING = 20;
const LCP_RATIO = 1.25;
const TBT_RATIO = 1.5;
const SUBJECTS = ['inbox', 'unpaired', 'pair', 'hello', 'helloSw'] as const satisfies readonly Subject[];
const SCORE_MARGIN = 0.03;
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

type Prepare = (page: Page) => Promise<void>;

/** A fresh Chromium per run (Lighthouse's advice), driven by Lighthouse through Puppeteer. */
async function withChrome<T>(work: (port: number, browser: Browser) => Promise<T>): Promise<T> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? chromiumPath(),
    chromeFlags: CHROME_FLAGS,
    logLevel: 'silent',
  });
  let browser: Browser | undefined;
  try {
    browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
    return await work(chrome.port, browser);
  } finally {
    await browser?.disconnect();
    chrome.kill();
  }
}

/** Hello world used once before as a PWA: its service worker (registered here, as the page has no code for it) controls it. */
async function installHelloServiceWorker(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'load' });
  await page.evaluate(async () => {
    await navigator.serviceWorker.register('/sw.js');
  });
  await page.waitForFunction(
    async () => (await navigator.serviceWorker.getRegistration())?.active?.state === 'activated',
    { timeout: 60_000 },
  );
  await page.reload({ waitUntil: 'load' });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, { timeout: 60_000 });
}

function describeElement(details: unknown): string {
  const snippet = JSON.stringify(details).match(/"snippet":"((?:[^"\\]|\\.)*)"/)?.[1];
  return snippet ? snippet.replace(/\\"/g, '"').slice(0, 80) : 'unknown';
}

// BENCH_LIGHTHOUSE_REPORTS=<dir>: every run's report (JSON) is kept there, to see what the figures hide.
let reports = 0;
function saveReport(url: string, visit: Visit, lhr: object): void {
  const dir = process.env.BENCH_LIGHTHOUSE_REPORTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  reports += 1;
  const name = `${String(reports).padStart(2, '0')}-${new URL(url).port}-${visit}.json`;
  fs.writeFileSync(path.join(dir, name), JSON.stringify(lhr));
}

/** Lighthouse now and then loses the navigation in its trace (NO_NAVSTART, NO_FCP): such a run is done again. */
async function measure(url: string, visit: Visit, prepare: Prepare): Promise<Sample> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await measureOnce(url, visit, prepare);
    } catch (error) {
      const flaky = error instanceof Error && /\bNO_(NAVSTART|FCP|LCP)\b/.test(error.message);
      if (!flaky || attempt === 3) throw error;
      console.log(`[lighthouse] ${url} ${visit}: ${error.message}; measuring again`);
    }
  }
}

async function measureOnce(url: string, visit: Visit, prepare: Prepare): Promise<Sample> {
  return withChrome(async (port, browser) => {
    const page = await browser.newPage();
    await prepare(page);
    // Lighthouse finds no navigation start in the trace of a page that never left its first about:blank.
    await page.goto('about:blank');
    const result = await lighthouse(
      url,
      {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
        disableStorageReset: visit === 'repeat',
      },
      undefined,
      page,
    );
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`Lighthouse returned no result for ${url}`);
    saveReport(url, visit, lhr);
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const numeric = (id: string) => {
      const value = lhr.audits[id]?.numericValue;
      if (value === undefined) throw new Error(`Lighthouse measured no ${id} for ${url}`);
      return value;
    };
    const score = lhr.categories.performance?.score;
    if (score === null || score === undefined) throw new Error(`Lighthouse gave no performance score for ${url}`);
    return {
      lcp: numeric('largest-contentful-paint'),
      tbt: numeric('total-blocking-time'),
      fcp: numeric('first-contentful-paint'),
      score,
      lcpElement: describeElement(lhr.audits['largest-contentful-paint-element']?.details),
    };
  });
}

export async function runLighthouse(): Promise<{ figures: Figure[] }> {
  // One build serves both references: the plain one never registers the service worker it carries.
  const hello = await buildHelloWorld({ served: true, serviceWorker: true });
  // The seeded questions have no runtime re-announcing them: keep them pending for the whole run.
  const app = await startHost({
    extraArgs: ['--stale-after', '2h', ...appStaticDirArgs()],
  });
  // Two origins, so that nothing one reference leaves in the browser can reach the other.
  const helloHost = await startHost({ extraArgs: ['--static-dir', hello.outDir] });
  const helloSwHost = await startHost({ extraArgs: ['--static-dir', hello.outDir] });
  let agent: RawRuntimeSocket | undefined;
  try {
    // The agent that asked stays connected for the whole run, as it would while its questions wait: without
    // it, every row would say it waits for the machine to come back (R17.6), a line the cached inbox lacks.
    agent = await connectRawRuntime(app.url, app.token);
    await announceAll(
      agent,
      Array.from({ length: PENDING }, (_, index) => interactionRequest(`lh-${index}`, `session-lh-${index % 4}`)),
    );
    const pairing = pairingInitScript(await pairBenchDevice(app, 'bench-lighthouse')).content;
    const adminToken = readAdminToken(app.dataDir);
    // Each visit of the pairing page opens a link with a code of its own, as a QR code from `askaway pair` would.
    const urls: Record<Subject, () => Promise<string>> = {
      inbox: () => Promise.resolve(`${app.url}/`),
      unpaired: () => Promise.resolve(`${app.url}/`),
      pair: async () => (await mintPairingCode(app.url, adminToken)).link,
      hello: () => Promise.resolve(`${helloHost.url}/`),
      helloSw: () => Promise.resolve(`${helloSwHost.url}/`),
    };
    // What each subject's visit finds in place (SUBJECT_VISITS says which visits each one has).
    const installInbox: Prepare = async (page) => {
      await page.evaluateOnNewDocument(pairing);
      await installApp(page, `${app.url}/`, PENDING);
    };
    const nothing: Prepare = () => Promise.resolve();
    const prepare: Record<Subject, Partial<Record<Visit, Prepare>>> = {
      inbox: {
        repeat: installInbox,
        first: async (page) => {
          await page.evaluateOnNewDocument(pairing);
        },
      },
      unpaired: { first: nothing },
      pair: { first: nothing },
      hello: {
        repeat: async (page) => {
          await page.goto(`${helloHost.url}/`, { waitUntil: 'load' });
        },
        first: nothing,
      },
      helloSw: { repeat: (page) => installHelloServiceWorker(page, `${helloSwHost.url}/`) },
    };
    const samples = emptySamples();
    const visitAll = async (into: typeof samples, visits: readonly Visit[], subjects: readonly Subject[], tag = '') => {
      for (let run = 0; run < RUNS; run += 1) {
        for (const visit of visits) {
          for (const subject of subjects) {
            const preparation = prepare[subject][visit];
            if (!preparation || !SUBJECT_VISITS[subject].includes(visit)) continue;
            const sample = await measure(await urls[subject](), visit, preparation);
            into[subject][visit].push(sample);
            console.log(
              `[lighthouse${tag}] run ${run + 1}/${RUNS} ${subject} ${visit}: LCP ${Math.round(sample.lcp)} ms, ` +
                `TBT ${Math.round(sample.tbt)} ms, FCP ${Math.round(sample.fcp)} ms, score ${sample.score} (LCP element ${sample.lcpElement})`,
            );
          }
        }
      }
    };
    // Discarded: the first Chromium start and the host's first requests are slower than any later one.
    await measure(`${app.url}/`, 'repeat', installInbox);
    await visitAll(samples, ['repeat', 'first'], SUBJECTS);
    const settings = {
      runs: RUNS,
      pending: PENDING,
      lcpRatio: LCP_RATIO,
      tbtRatio: TBT_RATIO,
      scoreMargin: SCORE_MARGIN,
    };
    const figures = lighthouseFigures(samples, settings);
    const beside = emptySamples();
    const neighbour = startBusyNeighbour();
    try {
      await visitAll(beside, ['first'], ['unpaired', 'pair', 'hello'], ', beside a busy neighbour');
    } finally {
      neighbour.stop();
    }
    figures.push(...besideNeighbourFigures(beside, settings, neighbour.note));
    printVerdicts(figures, samples);
    return { figures };
  } finally {
    agent?.disconnect();
    await Promise.all([app.stop(), helloHost.stop(), helloSwHost.stop()]);
    hello.dispose();
  }
}

if (isMain(import.meta.url)) await runAlone('lighthouse', runLighthouse);

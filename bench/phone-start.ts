// Phone start (R13.6): Chromium with the CPU throttled 4× and a slow-4G network (DevTools
// protocol emulation), from navigation to the first pending question in the DOM;
// cold (empty profile) and warm (service worker, HTTP cache and the last inbox on the
// device, so the first question shows from the cache, marked not live); median of 5.
// Warm also reports when the live inbox (the host's snapshot) is on screen.
import fs from 'node:fs';
import path from 'node:path';
import { type BrowserContext, type Page } from '@playwright/test';
import { type PairResponse } from '../lib/contracts';
import { launchPersistent, pairingInitScript } from './support/browser';
import { figure, round, type Figure } from './support/figures';
import { startHost, tempDir } from './support/host-process';
import { isMain, runAlone } from './support/main-guard';
import { interactionRequest } from './support/payloads';
import { seedPending } from './support/raw-runtime';
import { pairBenchDevice } from './support/remote-client';
import { median } from './support/stats';

const RUNS = Number(process.env.BENCH_PHONE_RUNS ?? 5);
/** Lighthouse's mobile profile: 150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up, CPU 4× slower. */
export const SLOW_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};
export const CPU_SLOWDOWN = 4;

/** Records when the first inbox item enters the DOM (performance.now(), from navigation start). */
const FIRST_ITEM_SCRIPT = `(() => {
  const mark = () => {
    if (window.__benchFirstItem !== undefined) return true;
    if (!document.querySelector('[data-testid="inbox.item"]')) return false;
    window.__benchFirstItem = performance.now();
    return true;
  };
  new MutationObserver((_, observer) => { if (mark()) observer.disconnect(); }).observe(document, { childList: true, subtree: true });
})();`;

declare global {
  interface Window {
    __benchFirstItem?: number;
  }
}

/** Throttles the page; returns a counter of bytes received over the network (encoded, as sent). */
async function throttle(context: BrowserContext, page: Page): Promise<() => number> {
  const cdp = await context.newCDPSession(page);
  let bytes = 0;
  cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => (bytes += event.encodedDataLength));
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  return () => bytes;
}

interface Start {
  /** The first question in the DOM (cached or live). */
  firstAt: number;
  /** The inbox rendered from the host's snapshot. */
  liveAt: number;
}

async function firstQuestion(context: BrowserContext, url: string, transferred: number[] = []): Promise<Start> {
  const page = await context.newPage();
  try {
    const received = await throttle(context, page);
    await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
    await page.waitForFunction(() => window.__benchFirstItem !== undefined, undefined, {
      timeout: 60_000,
      polling: 50,
    });
    const visible = await page.getByTestId('inbox.item').first().isVisible();
    if (!visible) throw new Error('the first inbox item is in the DOM but not visible');
    await page.waitForFunction(() => (window.__askaway?.inboxRenderedAt ?? null) !== null, undefined, {
      timeout: 60_000,
      polling: 50,
    });
    const start = await page.evaluate(() => ({
      firstAt: window.__benchFirstItem ?? Number.NaN,
      liveAt: window.__askaway?.inboxRenderedAt ?? Number.NaN,
    }));
    transferred.push(received());
    return start;
  } finally {
    await page.close();
  }
}

async function prepare(context: BrowserContext, device: PairResponse): Promise<void> {
  await context.addInitScript(pairingInitScript(device));
  await context.addInitScript({ content: FIRST_ITEM_SCRIPT });
}

export async function runPhoneStart(): Promise<{ figures: Figure[] }> {
  const host = await startHost();
  const profiles = tempDir('askaway-bench-profiles-');
  try {
    await seedPending(host.url, host.token, [interactionRequest('phone-1', 'session-phone')]);
    // One paired device for every run, as one phone opening the app again and again.
    const device = await pairBenchDevice(host, 'bench-phone');
    const url = `${host.url}/`;

    const cold: number[] = [];
    const coldBytes: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const context = await launchPersistent(path.join(profiles, `cold-${run}`));
      try {
        await prepare(context, device);
        cold.push((await firstQuestion(context, url, coldBytes)).firstAt);
      } finally {
        await context.close();
      }
    }

    const warm: number[] = [];
    const warmLive: number[] = [];
    const context = await launchPersistent(path.join(profiles, 'warm'));
    try {
      await prepare(context, device);
      // Install: first visit registers the service worker; the next one is controlled by it.
      const page = await context.newPage();
      await page.goto(url);
      await page.waitForFunction(
        async () => (await navigator.serviceWorker.getRegistration())?.active?.state === 'activated',
        undefined,
        {
          timeout: 60_000,
        },
      );
      await page.reload();
      const controlled = await page
        .waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 })
        .then(
          () => true,
          () => false,
        );
      // Warm starts show the inbox this device saw last: wait until it is saved.
      if (controlled) await page.waitForFunction(() => (window.__askaway?.cacheSavedAt ?? null) !== null);
      await page.close();
      if (!controlled) throw new Error('the service worker never took control of the page');
      for (let run = 0; run < RUNS; run += 1) {
        const start = await firstQuestion(context, url);
        warm.push(start.firstAt);
        warmLive.push(start.liveAt);
      }
    } finally {
      await context.close();
    }

    const note = `CPU ${CPU_SLOWDOWN}× slower, ${SLOW_4G.latency} ms latency, 1.6 Mbit/s down, 750 kbit/s up (CDP); navigation → first pending question in the DOM; median of ${RUNS}`;
    return {
      figures: [
        figure({
          name: 'phone start: cold (empty cache)',
          value: round(median(cold), 0),
          unit: 'ms',
          budget: 2_500,
          note,
        }),
        figure({
          name: 'phone start: warm (service worker cache)',
          value: round(median(warm), 0),
          unit: 'ms',
          budget: 300,
          note: `${note}; the question shown is the last one this device saw, marked not live`,
        }),
        figure({
          name: 'phone start: warm, live inbox on screen',
          value: round(median(warmLive), 0),
          unit: 'ms',
          note: `${note}; navigation → the host's snapshot rendered (socket connect over the throttled network)`,
        }),
        figure({
          name: 'phone start: cold bytes over the network',
          value: Math.round(median(coldBytes) / 1024),
          unit: 'KiB',
          note: 'sum of encodedDataLength until the first question shows: what a cold phone downloads',
        }),
      ],
    };
  } finally {
    fs.rmSync(profiles, { recursive: true, force: true });
    await host.stop();
  }
}

if (isMain(import.meta.url)) await runAlone('phone-start', runPhoneStart);

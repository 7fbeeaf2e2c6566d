// The two pages R13.8 reloads (./reload-floor.ts, ../reload-trace.ts): the installed app with 20 pending (service
// worker, cached inbox) and the plain socket.io page (./plain-socket-page.ts), against one host whose agent keeps
// its 20 questions waiting; each page watched by ./row-watch.ts, which reads every row's text every frame.
import { type Browser, type Page } from '@playwright/test';
import { pairingInitScript } from './browser';
import { appStaticDirArgs, startHost } from './host-process';
import { interactionRequest, QUESTION_TITLE } from './payloads';
import { startPlainPage } from './plain-socket-page';
import { announceAll, connectRawRuntime } from './raw-runtime';
import { pairBenchDevice } from './remote-client';
import { rowWatchScript, wallClock } from './row-watch';

export const PENDING = 20;
const APP_ROWS = '[data-testid="inbox.item"]';
const PLAIN_ROWS = '#rows > li';
const VIEWPORT = { width: 412, height: 915 };

export interface ReloadPages {
  app: Page;
  plain: Page;
  close(): Promise<void>;
}

/** What one reload took: `painted` from the reload's start, `navigationStart` when the new page's navigation began. */
export interface Reload {
  painted: number;
  navigationStart: number;
}

/** Both pages open, each once loaded with all its rows; the app installed and its inbox saved (R9.13). */
export async function openReloadPages(browser: Browser): Promise<ReloadPages> {
  const plainServer = await startPlainPage();
  const host = await startHost({
    extraArgs: ['--stale-after', '2h', '--allow-origin', plainServer.origin, ...appStaticDirArgs()],
  });
  const agent = await connectRawRuntime(host.url, host.token);
  const close = async () => {
    agent.disconnect();
    await host.stop();
    await plainServer.close();
  };
  try {
    // The agent stays connected while its questions wait, as a real one does (no "waiting for" line, R17.6).
    await announceAll(
      agent,
      Array.from({ length: PENDING }, (_, index) => interactionRequest(`reload-${index}`, `session-${index % 4}`)),
    );
    const appContext = await browser.newContext({ viewport: VIEWPORT });
    await appContext.addInitScript(pairingInitScript(await pairBenchDevice(host, 'bench-reload')));
    await appContext.addInitScript(rowWatchScript(APP_ROWS, PENDING, QUESTION_TITLE));
    const app = await appContext.newPage();
    await app.goto(`${host.url}/`);
    await app.waitForFunction(
      (total) =>
        navigator.serviceWorker.controller !== null &&
        window.__askaway?.pendingCount === total &&
        window.__askaway.cacheSavedAt !== null,
      PENDING,
      { timeout: 60_000 },
    );
    const plainContext = await browser.newContext({ viewport: VIEWPORT });
    await plainContext.addInitScript(rowWatchScript(PLAIN_ROWS, PENDING, QUESTION_TITLE));
    const plain = await plainContext.newPage();
    await plain.goto(plainServer.url(host.url, (await pairBenchDevice(host, 'bench-plain')).credential));
    await plain.waitForFunction(() => window.__allRowsAt !== undefined, undefined, { timeout: 60_000 });
    return {
      app,
      plain,
      close: async () => {
        await appContext.close();
        await plainContext.close();
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Reloads `page`, waits for all rows' text on screen, then for the page's own work after its rows (the app's live
 * code and cache save): the next reload, of either page, starts from pages left alone, as a person finds them.
 * Without that wait the plain page, reloaded right after the app, shared the machine with the app's work after its
 * rows: 131–173 ms then against 69–91 ms after its own reload.
 */
export async function reloadAndWatch(page: Page): Promise<Reload> {
  const startedAt = wallClock();
  await page.reload({ waitUntil: 'commit' });
  await page.waitForFunction(() => window.__allRowsFinal === true, undefined, { timeout: 60_000, polling: 16 });
  // The plain page has no such work (and no test hook): its rows are its last.
  await page.waitForFunction(
    () => window.__askaway === undefined || window.__askaway.cacheSavedAt !== null,
    undefined,
    {
      timeout: 60_000,
    },
  );
  const { allRowsAt, timeOrigin } = await page.evaluate(() => ({
    allRowsAt: window.__allRowsAt ?? Number.NaN,
    timeOrigin: performance.timeOrigin,
  }));
  return { painted: allRowsAt - startedAt, navigationStart: timeOrigin - startedAt };
}

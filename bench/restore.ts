// R13.2: 1,000 pending interactions across 100 sessions; a headless Chromium remote
// reconnects; time from its socket connecting to the whole inbox rendered (page load) or
// to its state caught up again (an open page resumes from lastSeq: the host replays only
// what it missed), read from the app's test hook (window.__askaway), median of 10 runs;
// plus the snapshot size. R13.8's reload at the floor is bench/reload.ts.
import { gzipSync } from 'node:zlib';
import { type Page } from '@playwright/test';
import { type Snapshot } from '../lib/contracts';
import { launchBrowser, pairingInitScript } from './support/browser';
import { figure, round, type Figure } from './support/figures';
import { startHost } from './support/host-process';
import { isMain, runAlone } from './support/main-guard';
import { interactionRequest } from './support/payloads';
import { seedPending } from './support/raw-runtime';
import { connectRemote, pairBenchDevice } from './support/remote-client';
import { median } from './support/stats';

const SESSIONS = 100;
const PER_SESSION = 10;
const RUNS = Number(process.env.BENCH_RESTORE_RUNS ?? 10);
const TOTAL = SESSIONS * PER_SESSION;

interface Marks {
  connectedAt: number;
  snapshotAt: number;
  syncedAt: number;
  renderedAt: number;
  domItems: number;
}

/** The marks, with `renderedAt` the first commit since the connect that showed `total` items (NaN if none yet). */
function readMarks(page: Page, total: number): Promise<Marks> {
  return page.evaluate((count) => {
    const hook = window.__askaway;
    const whole = hook?.inboxCommits.find((commit) => commit.count === count);
    return {
      connectedAt: hook?.connectedAt ?? Number.NaN,
      snapshotAt: hook?.snapshotAt ?? Number.NaN,
      syncedAt: hook?.syncedAt ?? Number.NaN,
      renderedAt: whole?.at ?? Number.NaN,
      domItems: document.querySelectorAll('[data-testid="inbox.item"]').length,
    };
  }, total);
}

/**
 * Waits for the first commit that shows all TOTAL items after a connect later than `after` (the
 * whole inbox as R13.2 means it, not a later re-render), and reads the marks.
 */
async function waitForFullInbox(page: Page, after: number): Promise<Marks> {
  await page.waitForFunction(
    ([total, since]) => {
      const hook = window.__askaway;
      return (
        hook !== undefined &&
        hook.connectedAt !== null &&
        hook.connectedAt > since &&
        hook.inboxCommits.some((commit) => commit.count === total)
      );
    },
    [TOTAL, after] as const,
    { timeout: 60_000, polling: 50 },
  );
  return readMarks(page, TOTAL);
}

/** Waits until the state caught up (snapshot or replay) after a connect later than `after`, and reads the marks. */
async function waitForCatchUp(page: Page, after: number): Promise<Marks> {
  await page.waitForFunction(
    (since) => {
      const hook = window.__askaway;
      return (
        hook !== undefined &&
        hook.connectedAt !== null &&
        hook.connectedAt > since &&
        hook.syncedAt !== null &&
        hook.syncedAt >= hook.connectedAt
      );
    },
    after,
    { timeout: 60_000, polling: 50 },
  );
  return readMarks(page, TOTAL);
}

function check(marks: Marks): Marks {
  if (marks.domItems !== TOTAL) throw new Error(`the inbox shows ${marks.domItems} items, expected ${TOTAL}`);
  return marks;
}

export async function runRestore(): Promise<{ figures: Figure[] }> {
  const host = await startHost();
  const browser = await launchBrowser();
  try {
    const requests = Array.from({ length: TOTAL }, (_, index) =>
      interactionRequest(`restore-${index}`, `session-${String(index % SESSIONS).padStart(3, '0')}`),
    );
    await seedPending(host.url, host.token, requests);
    const probe = await connectRemote(host.url, (await pairBenchDevice(host, 'bench-probe')).credential);
    const snapshot = probe.first as Snapshot;
    probe.socket.disconnect();
    if (snapshot.pending?.length !== TOTAL)
      throw new Error(`the snapshot holds ${snapshot.pending?.length} pending, expected ${TOTAL}`);
    const snapshotJson = JSON.stringify(snapshot);

    const context = await browser.newContext({ viewport: { width: 412, height: 915 } });
    await context.addInitScript(pairingInitScript(await pairBenchDevice(host, 'bench-browser')));
    const page = await context.newPage();
    await page.goto(`${host.url}/`);
    await waitForFullInbox(page, -1);

    // A fresh page load: the app mounts and renders the whole inbox from the snapshot.
    const reload: Marks[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      await page.reload({ waitUntil: 'commit' });
      reload.push(check(await waitForFullInbox(page, -1)));
    }
    // The page stays open; its socket drops (offline) and comes back.
    const reconnect: Marks[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      await context.setOffline(true);
      await page.waitForFunction(() => window.__askaway?.state.status === 'offline');
      const before = await page.evaluate(() => performance.now());
      await context.setOffline(false);
      reconnect.push(check(await waitForCatchUp(page, before)));
    }
    await context.close();

    const total = (marks: Marks[]) => median(marks.map((entry) => entry.renderedAt - entry.connectedAt));
    const note = `${TOTAL} pending across ${SESSIONS} sessions, median of ${RUNS}; socket connect → inbox committed (window.__askaway)`;
    return {
      figures: [
        figure({
          name: 'restore: page load, connect → inbox (R13.2)',
          value: round(total(reload), 1),
          unit: 'ms',
          budget: 300,
          note,
        }),
        figure({
          name: 'restore: page load, connect → snapshot applied',
          value: round(median(reload.map((entry) => entry.snapshotAt - entry.connectedAt)), 1),
          unit: 'ms',
        }),
        figure({
          name: 'restore: page load, snapshot → inbox',
          value: round(median(reload.map((entry) => entry.renderedAt - entry.snapshotAt)), 1),
          unit: 'ms',
        }),
        figure({
          name: 'restore: socket reconnect, connect → caught up (R13.2)',
          value: round(median(reconnect.map((entry) => entry.syncedAt - entry.connectedAt)), 1),
          unit: 'ms',
          budget: 300,
          note: `${TOTAL} pending across ${SESSIONS} sessions, median of ${RUNS}; the open page resumes from lastSeq (window.__askaway)`,
        }),
        figure({
          name: 'restore: snapshot size',
          value: Buffer.byteLength(snapshotJson),
          unit: 'bytes',
          note: 'JSON as sent (socket.io does not compress by default)',
        }),
        figure({
          name: 'restore: snapshot size gzip',
          value: gzipSync(snapshotJson).length,
          unit: 'bytes',
          note: 'for comparison only',
        }),
      ],
    };
  } finally {
    await browser.close();
    await host.stop();
  }
}

if (isMain(import.meta.url)) await runAlone('restore', runRestore);

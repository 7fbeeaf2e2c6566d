// R13.8: the installed app reloaded with 20 pending, timed from outside against the plain socket.io page
// (./support/reload-floor.ts), on a quiet machine and again beside a CPU-bound neighbour on one core
// (./support/busy-neighbour.ts): a phone, like these shared machines, is rarely idle (issue 40 §2).
import { launchBrowser } from './support/browser';
import { startBusyNeighbour } from './support/busy-neighbour';
import { type Figure } from './support/figures';
import { isMain, runAlone } from './support/main-guard';
import { runReloadFloor } from './support/reload-floor';

/** Alternated pairs per mode; R13.8 asks for at least five. */
const PAIRS = Number(process.env.BENCH_RELOAD_PAIRS ?? 5);

export async function runReload(): Promise<{ figures: Figure[] }> {
  const browser = await launchBrowser();
  try {
    const figures = await runReloadFloor(browser, PAIRS);
    const neighbour = startBusyNeighbour();
    try {
      figures.push(...(await runReloadFloor(browser, PAIRS, neighbour.note)));
    } finally {
      neighbour.stop();
    }
    return { figures };
  } finally {
    await browser.close();
  }
}

if (isMain(import.meta.url)) await runAlone('reload', runReload);

import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type LaunchOptions } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/support/chromium';
import { type PairResponse } from '../../lib/contracts';

export function chromiumPath(): string {
  if (!fs.existsSync(CHROMIUM_PATH))
    throw new Error(`No Chromium at ${CHROMIUM_PATH}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`);
  return CHROMIUM_PATH;
}

function launchOptions(): LaunchOptions {
  return { executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch(launchOptions());
}

/** A persistent profile: needed for a service worker to survive between visits (warm start). */
export function launchPersistent(userDataDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, { ...launchOptions(), viewport: { width: 412, height: 915 } });
}

/** Pairs the app before any of its scripts run: same-origin host, a device paired with it (`pairBenchDevice`). */
export function pairingInitScript(device: PairResponse): { content: string } {
  const pairing = {
    hostUrl: '',
    hostName: device.hostName,
    deviceId: device.deviceId,
    deviceName: 'Bench browser',
    credential: device.credential,
  };
  return {
    content: `try { localStorage.setItem('askaway.pairing', ${JSON.stringify(JSON.stringify(pairing))}); } catch {}`,
  };
}

import { existsSync, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Builder, type WebDriver } from 'selenium-webdriver';
import { spawnChild, unlessExited, type Child } from './processes';

const INSTALL_HINT =
  'apt-get install -y webkit2gtk-driver xvfb (or set WEBKIT_WEBDRIVER_PATH / WEBKIT_MINIBROWSER_PATH)';

/** The API versions WebKitGTK ships MiniBrowser under; first the one Debian's webkit2gtk-driver depends on. */
const WEBKITGTK_DIRS = ['webkit2gtk-4.1', 'webkitgtk-6.0', 'webkit2gtk-4.0'];

/**
 * WebKitGTK's MiniBrowser is not on PATH: Debian keeps it under /usr/lib/<multiarch>/webkit2gtk-4.1/,
 * Fedora under /usr/libexec/webkit2gtk-4.1/. `WEBKIT_MINIBROWSER_PATH` overrides the search.
 */
export function findMiniBrowser(): string {
  const override = process.env.WEBKIT_MINIBROWSER_PATH;
  if (override) {
    if (!existsSync(override)) throw new Error(`WEBKIT_MINIBROWSER_PATH=${override} does not exist`);
    return override;
  }
  // Multiarch folders (x86_64-linux-gnu, aarch64-linux-gnu, arm-linux-gnueabihf, …) first, as Debian has them.
  const multiarch = safeReaddir('/usr/lib')
    .filter((entry) => /-linux-gnu/.test(entry))
    .map((entry) => path.join('/usr/lib', entry));
  const roots = [...multiarch, '/usr/libexec', '/usr/lib', '/usr/lib64'];
  for (const dir of WEBKITGTK_DIRS) {
    for (const root of roots) {
      const candidate = path.join(root, dir, 'MiniBrowser');
      if (existsSync(candidate)) return candidate;
    }
  }
  throw new Error(`WebKitGTK's MiniBrowser was not found under ${roots.join(', ')}: ${INSTALL_HINT}`);
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Polls the driver's /status until it says ready (it prints nothing when it is). */
async function driverReady(url: string, deadline: number): Promise<void> {
  for (;;) {
    try {
      const response = await fetch(`${url}/status`, { signal: AbortSignal.timeout(2_000) });
      const body = (await response.json()) as { value?: { ready?: boolean } };
      if (body.value?.ready === true) return;
    } catch {
      // Not listening yet (or not answering yet).
    }
    if (Date.now() > deadline) throw new Error(`WebKitWebDriver at ${url} did not become ready`);
    // The poll interval: the driver gives no other sign that it is ready.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface WebKitSession {
  driver: WebDriver;
  /** What the driver printed, for failures. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * WebKitWebDriver on a free port, and one MiniBrowser session on `display`. MiniBrowser runs
 * full screen: its toolbar would otherwise keep the window at least 447 px wide, and a phone is 390.
 */
export async function startWebKit(display: string): Promise<WebKitSession> {
  const binary = process.env.WEBKIT_WEBDRIVER_PATH ?? 'WebKitWebDriver';
  const miniBrowser = findMiniBrowser();
  let driverProcess: Child | undefined;
  let url = '';
  // The free port can be taken between the check and the driver's bind: try a few.
  for (let attempt = 0; attempt < 3 && !driverProcess; attempt += 1) {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const child = spawnChild(binary, [`--port=${port}`], { env: { ...process.env, DISPLAY: display } });
    try {
      await unlessExited(child, `${binary} (${INSTALL_HINT})`, driverReady(url, Date.now() + 20_000));
      driverProcess = child;
    } catch (error) {
      await child.stop();
      if (attempt === 2) throw error;
    }
  }
  if (!driverProcess) throw new Error('WebKitWebDriver did not start');
  const started = driverProcess;
  try {
    const driver = await new Builder()
      .usingServer(url)
      .withCapabilities({
        browserName: 'MiniBrowser',
        'webkitgtk:browserOptions': {
          binary: miniBrowser,
          args: ['--automation', '--full-screen'],
        },
      })
      .build();
    await driver.manage().setTimeouts({ pageLoad: 30_000, script: 15_000 });
    return {
      driver,
      output: started.output,
      async stop() {
        await driver.quit().catch(() => undefined);
        await started.stop();
      },
    };
  } catch (error) {
    await started.stop();
    throw new Error(`no WebKit session: ${String(error)}\n${started.output()}`);
  }
}

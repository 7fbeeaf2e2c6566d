import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { By, type WebDriver, type WebElement } from 'selenium-webdriver';

const WAIT_MS = 15_000;
const POLL_MS = 50;

/**
 * The app in MiniBrowser, seen through WebDriver: waits on the DOM and on `window.__askaway`
 * (lib/client/test-hook.ts), never on time.
 */
export class WebKitApp {
  private shots = 0;

  constructor(
    readonly driver: WebDriver,
    /** The origin the browser uses for the host (a proxy in front of it). */
    readonly origin: string,
    private readonly shotsDir: string,
  ) {}

  async open(pathname: string): Promise<void> {
    await this.driver.get(`${this.origin}${pathname}`);
  }

  /** Runs `body` (a function body, with `arguments`) in the page; a returned promise is awaited. */
  evaluate<T>(body: string, ...args: unknown[]): Promise<T> {
    return this.driver.executeScript<T>(body, ...args);
  }

  /** Waits until `body` returns something truthy in the page, and returns it. */
  async waitFor<T>(what: string, body: string, args: unknown[] = [], timeout = WAIT_MS): Promise<T> {
    let last: unknown;
    const value = await this.driver.wait(
      async () => {
        last = await this.evaluate<unknown>(body, ...args);
        return last ? (last as T) : null;
      },
      timeout,
      `timed out waiting for ${what}`,
      POLL_MS,
    );
    return value as T;
  }

  /** Waits until the element for `css` is displayed, and returns it. */
  async visible(css: string, timeout = WAIT_MS): Promise<WebElement> {
    return this.driver.wait<WebElement>(
      async () => {
        const [element] = await this.driver.findElements(By.css(css));
        return element && (await element.isDisplayed()) ? element : null;
      },
      timeout,
      `timed out waiting for ${css} to be visible`,
      POLL_MS,
    );
  }

  async click(css: string): Promise<void> {
    await (await this.visible(css)).click();
  }

  /** The value of `attribute` on the first element for `css`, once it matches `expected`. */
  async waitForAttribute(css: string, attribute: string, expected: RegExp, timeout = WAIT_MS): Promise<string> {
    return this.waitFor(
      `${css} [${attribute}] to match ${expected}`,
      `const el = document.querySelector(arguments[0]);
       const value = el && el.getAttribute(arguments[1]);
       return value !== null && new RegExp(arguments[2], arguments[3]).test(value) ? value : null;`,
      [css, attribute, expected.source, expected.flags],
      timeout,
    );
  }

  async text(css: string): Promise<string> {
    return (await this.visible(css)).getText();
  }

  /** Paired, connected, and holding the host's snapshot. */
  async waitConnected(timeout = WAIT_MS): Promise<void> {
    await this.waitForAttribute(testId('connection.status'), 'data-status', /^connected$/, timeout);
    await this.waitFor('the snapshot', 'return window.__askaway?.state.host.hasSnapshot === true', [], timeout);
  }

  async waitForInteraction(requestId: string, status = 'pending'): Promise<void> {
    await this.waitFor(
      `interaction ${requestId} to be ${status}`,
      'return window.__askaway?.state.host.interactions.get(arguments[0])?.status === arguments[1]',
      [requestId, status],
    );
  }

  async openCard(requestId: string): Promise<void> {
    await this.waitForInteraction(requestId);
    await this.open(`/card?id=${encodeURIComponent(requestId)}`);
    await this.waitForAttribute(testId('card'), 'data-request-id', new RegExp(`^${escapeRegExp(requestId)}$`));
  }

  /** Saves the viewport as test-results/webkit/NN-name.png (numbered in the order taken). */
  async screenshot(name: string): Promise<string> {
    await mkdir(this.shotsDir, { recursive: true });
    this.shots += 1;
    const file = path.join(this.shotsDir, `${String(this.shots).padStart(2, '0')}-${name}.png`);
    await writeFile(file, Buffer.from(await this.driver.takeScreenshot(), 'base64'));
    return file;
  }
}

export function testId(id: string): string {
  return `[data-testid="${id}"]`;
}

export function option(questionIndex: number, label: string): string {
  return `[data-testid="card.question"][data-index="${questionIndex}"] [data-testid="card.option"][data-label="${label.replaceAll('"', '\\"')}"]`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

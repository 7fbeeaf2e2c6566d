import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { By, error as seleniumError } from 'selenium-webdriver';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startProxy } from '../bench/drills/tcp-proxy';
import { type AskUserQuestionInput, type InteractionResolution } from '../lib/contracts';
import { formatModelContent } from '../lib/core/format-model-content';
import { startTestHost, type TestHost } from '../e2e/support/host';
import { hostilePreviews, singleQuestion, STORAGE_QUESTION } from '../e2e/support/payloads';
import { ScriptedRuntime } from '../e2e/support/scripted-runtime';
import { startBeacon } from './support/beacon';
import { option, testId, WebKitApp } from './support/webkit-app';
import { startWebKit, type WebKitSession } from './support/webkit-driver';
import { startXvfb, type VirtualDisplay } from './support/xvfb';

const ROOT = path.resolve(import.meta.dirname, '..');
const SHOTS = path.join(ROOT, 'test-results', 'webkit');
const DATABASE = 'Which database should we use?';
const FEATURES = 'Which features should ship first?';

const singleAndMulti: AskUserQuestionInput = {
  questions: [
    {
      question: DATABASE,
      header: 'Database',
      multiSelect: false,
      options: [
        { label: 'Postgres (Recommended)', description: 'Relational, mature, JSONB.' },
        { label: 'MySQL', description: 'Widely hosted.' },
      ],
    },
    {
      question: FEATURES,
      header: 'Features',
      multiSelect: true,
      options: [
        { label: 'Search', description: 'Full-text search over notes.' },
        { label: 'Export', description: 'Download as Markdown.' },
        { label: 'Sharing', description: 'Share read-only links.' },
      ],
    },
  ],
};

let host: TestHost;
let proxy: Awaited<ReturnType<typeof startProxy>>;
let runtime: ScriptedRuntime;
let display: VirtualDisplay;
let webkit: WebKitSession;
let app: WebKitApp;

async function resolutionOf(requestId: string): Promise<InteractionResolution> {
  await expect.poll(() => runtime.resolutionsFor(requestId).length, { timeout: 15_000 }).toBeGreaterThan(0);
  return runtime.resolutionsFor(requestId)[0] as InteractionResolution;
}

// One phone, in order: pairing first, then what a person does with the paired app.
describe.sequential('WebKit (MiniBrowser) smoke', () => {
  beforeAll(async () => {
    await rm(SHOTS, { recursive: true, force: true });
    for (const built of ['out/index.html', 'dist/cli.js']) {
      if (!existsSync(path.join(ROOT, built))) throw new Error(`${built} is missing: run \`npm run build\` first`);
    }
    host = await startTestHost();
    // The browser reaches the host only through this proxy, so a test can cut the phone off alone.
    proxy = await startProxy(host.port);
    runtime = new ScriptedRuntime(host.url, host.token);
    await runtime.connected();
    display = await startXvfb();
    webkit = await startWebKit(display.display);
    await webkit.driver.manage().window().setRect({ width: 390, height: 844 });
    app = new WebKitApp(webkit.driver, proxy.url, SHOTS);
  });

  afterAll(async () => {
    await webkit?.stop();
    await display?.stop();
    runtime?.close();
    await proxy?.close();
    try {
      host?.assertNoSecretsInOutput();
    } finally {
      await host?.stop();
    }
  });

  afterEach(async (context) => {
    if (context.task.result?.state !== 'fail' || !app) return;
    await app.screenshot(`failed-${context.task.name.replace(/\W+/g, '-').slice(0, 40)}`).catch(() => undefined);
    // The host's banner has a QR code: leave it out.
    const hostLog = host
      .output()
      .split('\n')
      .filter((line) => !/[▀▄█]/.test(line))
      .join('\n');
    console.error(`WebKitWebDriver output:\n${webkit.output().slice(-4_000)}\nhost output:\n${hostLog.slice(-2_000)}`);
  });

  it('[R9.2][R16.2] pairs from a pairing link: the code leaves the address bar, the device is named, the inbox connects', async () => {
    const size = await app.evaluate<{ width: number; height: number }>(
      'return { width: innerWidth, height: innerHeight }',
    );
    expect(size).toEqual({ width: 390, height: 844 });
    const { code } = await host.mintPairingCode();
    await app.open(`/pair#code=${encodeURIComponent(code)}`);
    await app.waitForAttribute(testId('pair.form'), 'data-mode', /^link$/);
    expect(await app.evaluate<string>('return location.hash')).toBe('');
    await app.screenshot('pair-form');
    await app.click(testId('pair.submit'));
    await app.waitFor('the inbox', 'return location.pathname === "/" || location.pathname === "/index.html"');
    await app.waitConnected();
    const credential = await app.evaluate<string>(
      'return JSON.parse(localStorage.getItem("askaway.pairing")).credential',
    );
    expect(credential).toMatch(/^aw_d_/);
    host.rememberSecret(credential);
    await app.screenshot('paired-inbox');
  });

  it('[R9.3][R9.11] answers a single-select and a multi-select question; the agent gets both answers', async () => {
    const requestId = await runtime.ask(singleAndMulti);
    const item = `${testId('inbox.item')}[data-request-id="${requestId}"]`;
    await app.visible(item);
    await app.screenshot('inbox-with-question');
    // Tapped, as a person does: the card opens by client-side navigation.
    await app.click(item);
    await app.waitForAttribute(testId('card'), 'data-request-id', new RegExp(`^${requestId}$`));
    await app.click(option(0, 'MySQL'));
    await app.waitForAttribute(option(0, 'MySQL'), 'data-checked', /^true$/);
    await app.screenshot('single-select-chosen');
    await app.click(testId('card.next'));
    await app.click(option(1, 'Export'));
    await app.click(option(1, 'Search'));
    await app.waitForAttribute(option(1, 'Search'), 'data-checked', /^true$/);
    await app.waitForAttribute(option(1, 'Export'), 'data-checked', /^true$/);
    await app.screenshot('multi-select-chosen');
    await app.click(testId('card.next'));
    await app.visible(testId('card.review'));
    await app.screenshot('review');
    await app.click(testId('card.submit'));

    const resolution = await resolutionOf(requestId);
    expect(resolution.response).toEqual({
      action: 'accept',
      // Chosen labels in option order, whatever order they were tapped in.
      content: { answers: { [DATABASE]: 'MySQL', [FEATURES]: 'Search, Export' } },
    });
    const answers = resolution.response.action === 'accept' ? (resolution.response.content?.answers ?? {}) : {};
    expect(formatModelContent({ ...singleAndMulti, answers })).toBe(
      `User has answered your questions: "${DATABASE}"="MySQL", "${FEATURES}"="Search, Export". You can now continue with the user's answers in mind.`,
    );
    await app.waitForAttribute(testId('card.receipt'), 'data-state', /^(delivered|applied)$/);
    await app.screenshot('receipt');
  });

  it('[R2.9][R4.2] typed "Other" text and a note go with the answer; a skipped question is left out', async () => {
    const requestId = await runtime.ask(singleAndMulti);
    await app.openCard(requestId);
    const first = `${testId('card.question')}[data-index="0"]`;
    await app.click(`${first} ${testId('card.option-other')}`);
    await (await app.visible(`${first} ${testId('card.other-input')}`)).sendKeys('SQLite, for now');
    await app.click(`${first} ${testId('card.add-note')}`);
    await (await app.visible(`${first} ${testId('card.note-input')}`)).sendKeys('Postgres once we have users');
    await app.screenshot('other-and-note');
    await app.click(testId('card.next'));
    await app.click(`${testId('card.question')}[data-index="1"] ${testId('card.skip')}`);
    await app.click(testId('card.next'));
    await app.visible(testId('card.review'));
    await app.screenshot('review-partial');
    await app.click(testId('card.submit'));

    const resolution = await resolutionOf(requestId);
    expect(resolution.response).toEqual({
      action: 'accept',
      content: {
        answers: { [DATABASE]: 'SQLite, for now' },
        annotations: { [DATABASE]: { notes: 'Postgres once we have users' } },
      },
    });
    await app.waitForAttribute(testId('card.receipt'), 'data-state', /^(delivered|applied)$/);
  });

  it('[R9.8][R9.1] an answer given while the host is unreachable waits in IndexedDB, survives a reload and is delivered once', async () => {
    const requestId = await runtime.ask(singleQuestion);
    await app.openCard(requestId);
    // The offline reload needs the service worker in control and the host state cached.
    await app.waitFor('a controlling service worker', 'return navigator.serviceWorker.controller !== null');
    await app.waitFor('the cached host state', 'return window.__askaway?.cacheSavedAt !== null');

    proxy.cut();
    await app.waitForAttribute(testId('connection.status'), 'data-status', /^(offline|reconnecting)$/);
    await app.click(option(0, 'SQLite'));
    await app.click(testId('card.submit'));
    await app.waitForAttribute(testId('card.receipt'), 'data-state', /^queued$/);
    expect(await app.text(testId('card.receipt-status'))).toBe('Queued — will send when connected');
    const stored = await app.evaluate<{ requestId: string; state: string }[]>(OUTBOX_ENTRIES);
    expect(stored).toEqual([expect.objectContaining({ requestId, state: 'queued' })]);
    await app.screenshot('offline-queued');

    await webkit.driver.navigate().refresh();
    // Served by the service worker (the host is unreachable), restored from IndexedDB.
    await app.waitForAttribute(testId('card.receipt'), 'data-state', /^queued$/);
    expect(await app.text(testId('card.receipt'))).toContain('SQLite');
    expect(await app.evaluate<boolean>('return navigator.serviceWorker.controller !== null')).toBe(true);
    expect(runtime.resolutionsFor(requestId)).toHaveLength(0);
    await app.screenshot('offline-reloaded');

    proxy.restore();
    await app.waitForAttribute(testId('card.receipt'), 'data-state', /^(delivered|applied)$/, 20_000);
    const resolution = await resolutionOf(requestId);
    expect(resolution.response).toEqual({ action: 'accept', content: { answers: { [STORAGE_QUESTION]: 'SQLite' } } });
    expect(new Set(runtime.resolutionsFor(requestId).map((r) => r.clientResponseId)).size).toBe(1);
    // Removed from IndexedDB only once the host acknowledged it.
    await app.waitFor('an empty outbox', `return (${OUTBOX_ENTRIES_FN})().then((entries) => entries.length === 0)`);
    await app.screenshot('back-online-delivered');
  });

  it('[R9.1] Settings → Theme → Dark applies at once and survives a reload', async () => {
    await app.click(testId('card.back-to-inbox'));
    await app.click(testId('nav.settings'));
    // Light first, so the change to dark is seen whatever the desktop's own colour scheme is.
    const light = await chooseTheme('light');
    expect(luminance(light)).toBeGreaterThan(0.5);
    await app.screenshot('settings-light');
    const dark = await chooseTheme('dark');
    expect(luminance(dark)).toBeLessThan(0.2);
    await app.screenshot('settings-dark');

    await webkit.driver.navigate().refresh();
    await app.waitFor('data-theme="dark" after a reload', 'return document.documentElement.dataset.theme === "dark"');
    expect(await app.evaluate<string>(BACKGROUND)).toBe(dark);
    await app.open('/');
    await app.waitConnected();
    await app.screenshot('inbox-dark');
  });

  it('[R9.13] opened while the host is unreachable: the inbox it saw last, marked not live, then the live one', async () => {
    const asked = [await runtime.ask(singleQuestion), await runtime.ask(singleQuestion)];
    for (const requestId of asked) await app.visible(inboxItem(requestId));
    await app.waitFor(
      'the inbox saved for next time',
      `return (${CACHED_REQUEST_IDS_FN})().then((ids) => arguments[0].every((id) => ids.includes(id)))`,
      [asked],
    );

    proxy.cut();
    await webkit.driver.navigate().refresh();
    // Read from IndexedDB as the page loads (the service worker serves it): on screen, and not called live.
    for (const requestId of asked) await app.visible(inboxItem(requestId));
    await app.waitForAttribute(testId('inbox.list'), 'data-live', /^false$/);
    await app.waitForAttribute(testId('connection.status'), 'data-live', /^false$/);
    // textContent: WebKitWebDriver reads the pill's rendered text as empty.
    expect(await app.evaluate<string>(TEXT_CONTENT, testId('connection.status'))).toMatch(
      /^Last seen (?:\d{1,2} [A-Z][a-z]+ )?\d\d:\d\d · connecting…$/,
    );
    await app.screenshot('instant-open-cached');
    const cachedRows = await app.evaluate<string>(ROW_BOXES, testId('inbox.item'));

    proxy.restore();
    await app.waitForAttribute(testId('inbox.list'), 'data-live', /^true$/, 20_000);
    await app.waitConnected();
    for (const requestId of asked) await app.visible(inboxItem(requestId));
    // The live snapshot swaps what the rows hold, not where they are.
    expect(await app.evaluate<string>(ROW_BOXES, testId('inbox.item'))).toBe(cachedRows);
    await app.screenshot('instant-open-live');
  });

  it('[R12.2] hostile previews and a hostile plan run no script and load nothing', async () => {
    // Every URL the hostile markup names points here, so a load shows up as a request.
    const beacon = await startBeacon();
    try {
      const input = hostilePreviews(beacon.url);
      await app.openCard(await runtime.ask(input));
      for (const { label } of input.questions[0]?.options ?? []) {
        await app.click(option(0, label));
        await app.waitForAttribute(testId('card.preview'), 'data-label', exactly(label));
        const frame = await app.visible(testId('card.preview-frame'));
        expect(await frame.getAttribute('sandbox')).toBe('');
        expect(await frame.getAttribute('srcdoc')).toMatch(PREVIEW_CSP);
        // Inside the frame: it has rendered (and its link is there to be tapped) before effects are looked for.
        // Its CSP tag is the mark of the preview's own document: the frame's first one, about:blank, has a body too.
        await inPreviewFrame(async () => {
          await webkit.driver.findElement(By.css('meta[http-equiv="Content-Security-Policy"]'));
          if (label === 'javascript link') await webkit.driver.findElement(By.linkText('click')).click();
        });
      }
      const plan = [
        '# Plan',
        `<img src="${beacon.url}/img.png"><video src="${beacon.url}/v.mp4"></video>`,
        `<script>window.__pwned = 1</script><iframe src="${beacon.url}/frame"></iframe>`,
        '',
        '1. Add the **cache** layer',
      ].join('\n');
      await app.openCard(await runtime.plan(plan));
      const rendered = await app.visible(`div.markdown${testId('card.plan')}`);
      expect(await rendered.getText()).toContain('Add the cache layer');
      expect(await app.evaluate<string>('return arguments[0].innerHTML', rendered)).not.toMatch(
        /<(?:img|video|script|iframe)\b/i,
      );
      // The page has drawn twice since: anything that slipped through has been asked for.
      await app.evaluate('return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
      expect(
        await webkit.driver
          .switchTo()
          .alert()
          .then(
            (alert) => alert.getText(),
            () => null,
          ),
      ).toBeNull();
      expect(await app.evaluate<unknown>('return window.__pwned')).toBeNull();
      expect(beacon.requests).toEqual([]);
      await app.screenshot('hostile-plan');
    } finally {
      await beacon.close();
    }
  });
});

/**
 * Runs `work` inside the preview frame. A new preview's document may still be replacing the last one, or the
 * frame's first (about:blank), when the frame is entered (WebKitWebDriver: "Callback was not called before the
 * unload event", or an element of the preview not there yet): then the frame is entered again, once its new
 * document is there.
 */
async function inPreviewFrame(work: () => Promise<void>): Promise<void> {
  await webkit.driver.wait(
    async () => {
      try {
        await webkit.driver.switchTo().frame(await app.visible(testId('card.preview-frame')));
        await work();
        return true;
      } catch (caught) {
        if (
          caught instanceof seleniumError.NoSuchFrameError ||
          caught instanceof seleniumError.StaleElementReferenceError ||
          caught instanceof seleniumError.NoSuchElementError
        )
          return false;
        throw caught;
      } finally {
        await webkit.driver.switchTo().defaultContent();
      }
    },
    10_000,
    'the preview frame to hold its new document',
  );
}

/** Taps a theme segment; returns the page background once the theme has applied. */
async function chooseTheme(theme: 'light' | 'dark'): Promise<string> {
  // The radio itself is visually hidden inside its segment: tap the segment, as a person does.
  await app.click(`${testId('settings.theme')} label:has(${testId(`settings.theme.${theme}`)})`);
  // No transition on the background: the computed style is the theme's as soon as the attribute is.
  return app.waitFor<string>(
    `data-theme="${theme}"`,
    `return document.documentElement.dataset.theme === arguments[0] && (${BACKGROUND_FN})()`,
    [theme],
  );
}

const TEXT_CONTENT = `return document.querySelector(arguments[0])?.textContent.replace(/\\s+/g, ' ').trim() ?? ''`;

/**
 * Where each inbox row is in the inbox's list, as one comparable string. Relative to the list: the "can't
 * reach the host" banner above it comes and goes with the connection, on its own schedule.
 */
const ROW_BOXES = `const list = document.querySelector('[data-testid="inbox.list"]').getBoundingClientRect();
return JSON.stringify([...document.querySelectorAll(arguments[0])].map((row) => {
  const box = row.getBoundingClientRect();
  return [row.getAttribute('data-request-id'), box.top - list.top, box.left, box.width, box.height];
}))`;

/** The policy every preview document starts with: nothing loads but inline styles and data: images. */
const PREVIEW_CSP =
  /^<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">/;

function exactly(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}

function inboxItem(requestId: string): string {
  return `${testId('inbox.item')}[data-request-id="${requestId}"]`;
}

/** The request ids of the host state this device saved for its next start (IndexedDB). */
// Each read gives up after 2 s and answers nothing, so the wait around it asks again: one IndexedDB open that
// WebKit held back (the service worker keeps its own connection) ran into WebDriver's 15 s script timeout.
const CACHED_REQUEST_IDS_FN = `() => new Promise((resolve, reject) => {
  setTimeout(() => resolve([]), 2000);
  const open = indexedDB.open('askaway');
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const request = open.result.transaction('cache', 'readonly').objectStore('cache').get('host');
    request.onsuccess = () => { open.result.close(); resolve((request.result?.interactions ?? []).map((view) => view.requestId)); };
    request.onerror = () => reject(request.error);
  };
})`;

const OUTBOX_ENTRIES_FN = `() => new Promise((resolve, reject) => {
  const open = indexedDB.open('askaway');
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const request = open.result.transaction('outbox', 'readonly').objectStore('outbox').getAll();
    request.onsuccess = () => { open.result.close(); resolve(request.result); };
    request.onerror = () => reject(request.error);
  };
})`;
const OUTBOX_ENTRIES = `return (${OUTBOX_ENTRIES_FN})()`;
const BACKGROUND_FN = '() => getComputedStyle(document.body).backgroundColor';
const BACKGROUND = `return (${BACKGROUND_FN})()`;

/** Relative luminance (0 black … 1 white) of a computed `rgb(…)` colour. */
function luminance(color: string): number {
  const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).map(Number).map((c) => c / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

import { expect, type Locator, type Page } from '@playwright/test';
import { type TestHost } from './host';

/** The app as one device sees it: pairing, connection state and the test hook. */
export class AppPage {
  private readonly hostUrl: string;

  constructor(
    readonly page: Page,
    private readonly host: TestHost,
  ) {
    this.hostUrl = host.url;
  }

  /** Opens a fresh pairing link, names the device, pairs, and waits until the inbox has its snapshot (R16.2). */
  async pair(name?: string): Promise<void> {
    const { link } = await this.host.mintPairingCode();
    await this.pairWith(link, name);
  }

  /** Opens `link`, names the device and taps Pair; the code leaves the address bar at once. */
  async pairWith(link: string, name?: string): Promise<void> {
    await this.page.goto(link);
    await expect(this.page.getByTestId('pair.form')).toHaveAttribute('data-mode', 'link');
    expect(new URL(this.page.url()).hash).toBe('');
    if (name !== undefined) await this.page.getByTestId('pair.device').fill(name);
    await this.page.getByTestId('pair.submit').click();
    await this.page.waitForURL((url) => url.pathname === '/' || url.pathname === '/index.html');
    await this.waitConnected();
    const pairing = await this.storedPairing();
    if (!pairing?.credential) throw new Error('paired, but no device credential was stored');
    this.host.rememberSecret(pairing.credential);
  }

  /** What this device keeps in localStorage about its pairing. */
  storedPairing(): Promise<{ deviceId?: string; credential?: string; token?: string } | null> {
    return this.page.evaluate(() => {
      const raw = localStorage.getItem('askaway.pairing');
      return raw ? (JSON.parse(raw) as { deviceId?: string; credential?: string; token?: string }) : null;
    });
  }

  async waitConnected(): Promise<void> {
    await expect(this.page.getByTestId('connection.status').first()).toHaveAttribute('data-status', 'connected');
    await this.page.waitForFunction(() => window.__askaway?.state.host.hasSnapshot === true);
  }

  /** Waits until the remote knows this interaction (by snapshot or live event). */
  async waitForInteraction(requestId: string, status = 'pending'): Promise<void> {
    await this.page.waitForFunction(
      ([id, wanted]) => window.__askaway?.state.host.interactions.get(id)?.status === wanted,
      [requestId, status] as const,
    );
  }

  get inbox() {
    return new InboxPage(this.page);
  }

  card(): CardPage {
    return new CardPage(this.page);
  }

  async goto(path: string): Promise<void> {
    await this.page.goto(`${this.hostUrl}${path}`);
  }

  async openCard(requestId: string): Promise<CardPage> {
    await this.waitForInteraction(requestId);
    await this.page.goto(`${this.hostUrl}/card?id=${encodeURIComponent(requestId)}`);
    const card = this.card();
    await expect(card.root).toHaveAttribute('data-request-id', requestId);
    return card;
  }

  async setTheme(theme: 'light' | 'dark'): Promise<void> {
    await this.page.emulateMedia({ colorScheme: theme });
  }
}

export class InboxPage {
  constructor(readonly page: Page) {}
  get items(): Locator {
    return this.page.getByTestId('inbox.item');
  }
  item(requestId: string): Locator {
    return this.page.locator(`[data-testid="inbox.item"][data-request-id="${requestId}"]`);
  }
}

/** The app's wide-screen breakpoint (WIDE_QUERY in hooks/use-media-query.ts): below it, cards step. */
const WIDE_MIN_WIDTH = 900;

/** The question card; hides whether it is stepped (phone) or all-at-once (desktop). */
export class CardPage {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('card');
  }
  get receipt(): Locator {
    return this.page.getByTestId('card.receipt');
  }
  /** The review a stepped card ends with (its answer list inside shares the test id). */
  get review(): Locator {
    return this.page.locator('section[data-testid="card.review"]');
  }
  question(index: number): Locator {
    return this.page.locator(`[data-testid="card.question"][data-index="${index}"]`);
  }
  option(index: number, label: string): Locator {
    return this.question(index).locator(`[data-testid="card.option"][data-label="${label.replaceAll('"', '\\"')}"]`);
  }

  /**
   * Whether this card must show one question at a time: on a screen narrower than the app's 900 px
   * breakpoint, when it asks more than one (R9.3, R9.4). Decided from the viewport and what was asked,
   * never from what the card happens to show, so a card laid out the wrong way fails the test.
   */
  async stepped(): Promise<boolean> {
    const width = this.page.viewportSize()?.width;
    if (width === undefined) throw new Error('the page has no fixed viewport');
    if (width >= WIDE_MIN_WIDTH) return false;
    const requestId = await this.root.getAttribute('data-request-id');
    const count = await this.page.evaluate((id) => {
      const view = id === null ? undefined : window.__askaway?.state.host.interactions.get(id);
      const input: unknown = view?.input;
      const questions = typeof input === 'object' && input !== null && 'questions' in input ? input.questions : [];
      return Array.isArray(questions) ? questions.length : 0;
    }, requestId);
    return count > 1;
  }

  /** The step a stepped card is on (its question count when on the review), from the stepper's marks. */
  private async currentStep(): Promise<{ step: number; count: number }> {
    const stepper = this.page.getByTestId('card.step');
    await expect(stepper).toBeVisible();
    const marks = await stepper
      .locator('.stepper__bar > span')
      .evaluateAll((spans) => spans.map((span) => span.getAttribute('data-current') === 'true'));
    const step = marks.indexOf(true);
    return { step: step < 0 ? marks.length : step, count: marks.length };
  }

  /** Brings question `index` on screen: a stepped card steps there (back or forward), a wide one shows all. */
  async show(index: number): Promise<Locator> {
    const question = this.question(index);
    if (await this.stepped()) {
      const { step } = await this.currentStep();
      const button = this.page.getByTestId(index < step ? 'card.back' : 'card.next');
      for (let moves = Math.abs(index - step); moves > 0; moves -= 1) await button.click();
    } else {
      await expect(this.page.getByTestId('card.next')).toHaveCount(0);
    }
    await expect(question).toBeVisible();
    return question;
  }

  async choose(index: number, label: string): Promise<void> {
    await this.show(index);
    await this.option(index, label).click();
  }

  async other(index: number, text: string): Promise<void> {
    const question = await this.show(index);
    await question.getByTestId('card.option-other').click();
    await question.getByTestId('card.other-input').fill(text);
  }

  async note(index: number, text: string): Promise<void> {
    const question = await this.show(index);
    await question.getByTestId('card.add-note').click();
    await question.getByTestId('card.note-input').fill(text);
  }

  async skip(index: number): Promise<void> {
    const question = await this.show(index);
    await question.getByTestId('card.skip').click();
  }

  /** A stepped card steps on to its review; a wide card has none, its submit button is already there. */
  async toReview(): Promise<void> {
    if (await this.stepped()) {
      const { step, count } = await this.currentStep();
      for (let moves = count - step; moves > 0; moves -= 1) await this.page.getByTestId('card.next').click();
      await expect(this.review).toBeVisible();
    } else {
      await expect(this.review).toHaveCount(0);
    }
    await expect(this.page.getByTestId('card.submit')).toBeVisible();
  }

  /** Steps to the review (phone) and submits. */
  async submit(): Promise<void> {
    await this.toReview();
    await this.page.getByTestId('card.submit').click();
  }

  async skipAll(): Promise<void> {
    await this.page.getByTestId('card.menu').click();
    await this.page.getByTestId('card.skip-all').click();
    await this.page.getByTestId('card.skip-all-dialog-confirm').click();
  }

  async decline(reason: string): Promise<void> {
    await this.page.getByTestId('card.menu').click();
    await this.page.getByTestId('card.decline').click();
    await this.page.getByTestId('card.decline-dialog-reason').fill(reason);
    await this.page.getByTestId('card.decline-dialog-confirm').click();
  }
}

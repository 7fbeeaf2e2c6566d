import { expect, type Locator, type Page } from '@playwright/test';
import { pairingLink } from '../../lib/contracts/pairing-link';

/** The app as one device sees it: pairing, connection state and the test hook. */
export class AppPage {
  constructor(
    readonly page: Page,
    private readonly hostUrl: string,
    private readonly token: string,
  ) {}

  /** Opens the pairing link (token in the fragment) and waits until the inbox has its snapshot. */
  async pair(): Promise<void> {
    await this.page.goto(pairingLink(this.hostUrl, this.token));
    await this.page.waitForURL((url) => url.pathname === '/' || url.pathname === '/index.html');
    await this.waitConnected();
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

/** The question card; hides whether it is stepped (phone) or all-at-once (desktop). */
export class CardPage {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('card');
  }
  get receipt(): Locator {
    return this.page.getByTestId('card.receipt');
  }
  question(index: number): Locator {
    return this.page.locator(`[data-testid="card.question"][data-index="${index}"]`);
  }
  option(index: number, label: string): Locator {
    return this.question(index).locator(`[data-testid="card.option"][data-label="${label.replaceAll('"', '\\"')}"]`);
  }

  /** On a phone only the current question is on screen; step forward until it is. */
  async show(index: number): Promise<Locator> {
    const question = this.question(index);
    for (let guard = 0; guard < 5 && !(await question.isVisible()); guard += 1) {
      await this.page.getByTestId('card.next').click();
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

  /** Steps to the review (phone) and submits. */
  async submit(): Promise<void> {
    const submit = this.page.getByTestId('card.submit');
    for (let guard = 0; guard < 6 && !(await submit.isVisible()); guard += 1) {
      await this.page.getByTestId('card.next').click();
    }
    await submit.click();
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

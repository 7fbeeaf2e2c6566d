// Finished turns (R19) against the real host and the real PWA: a runtime made of lib/runtime/finished-turns.ts over a
// real connection announces turns, and its `deliver` records exactly what the phone sent.
import { type Page } from '@playwright/test';
import { FINISHED_TURN_TERMINAL_REASON } from '../lib/contracts';
import { createFinishedTurns, type FinishedTurn, type FinishedTurns } from '../lib/runtime/finished-turns';
import { createRuntimeClient, type RuntimeClient } from '../lib/runtime/runtime-broker';
import { axeViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { ownerCli, type TestHost } from './support/host';
import { singleQuestion } from './support/payloads';
import { PHONE_SCREEN, reviewShots, SCREENSHOTS_DIR } from './support/screenshots';

const CODEX = { kind: 'codex', name: 'Codex', version: '0.171.0' } as const;

const SHORT = 'Added the LRU cache in `cache.ts` and wired it into the fetcher.\n\nAll 42 tests pass.';
const LONG = [
  '## What changed',
  '',
  ...Array.from({ length: 14 }, (_, index) => `- Step ${index + 1}: touched \`module-${index + 1}.ts\``),
  '',
  '```ts',
  'export const cache = new Lru<string, Response>({ max: 500 });',
  '```',
  '',
  'The last line of a long message.',
].join('\n');

interface Rig {
  client: RuntimeClient;
  turns: FinishedTurns;
  delivered: string[];
  /** What the agent's idle check answers when a reply comes. */
  busy: { now: boolean };
  finished(turn: Partial<FinishedTurn>): string;
}

async function rig(host: TestHost): Promise<Rig> {
  const client = createRuntimeClient({ url: host.url, token: host.token });
  await client.connection.ready();
  const turns = createFinishedTurns({ client, log: () => undefined });
  const delivered: string[] = [];
  const busy = { now: false };
  return {
    client,
    turns,
    delivered,
    busy,
    finished(turn) {
      const full: FinishedTurn = {
        sessionId: 'thread-7f3a',
        turnId: `turn-${delivered.length}-${Math.random().toString(36).slice(2)}`,
        agent: CODEX,
        context: { projectName: 'shop', cwd: '/home/ada/src/shop', sessionTitle: 'Cache work' },
        status: 'completed',
        message: SHORT,
        reply: 'prompt',
        ...turn,
      };
      void turns.finished(full, (text) => {
        if (busy.now) return Promise.resolve('busy');
        delivered.push(text);
        return Promise.resolve('sent');
      });
      return `turn:${full.sessionId}:${full.turnId}`;
    },
  };
}

/** With SCREENSHOTS=1: the screen at 390×844 and at desktop width, light and dark (R19.10). */
async function shots(page: Page, name: string): Promise<void> {
  await reviewShots(page, name, 'turn-phone', PHONE_SCREEN);
  await reviewShots(page, name, 'turn-desktop', { width: 1280, height: 800 });
}

async function expectNoViolations(page: Page, screen: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations.map((violation) => `${screen}: ${violation}`)).toEqual([]);
}

test.describe('finished turns on the phone (R19)', () => {
  // Review screenshots (SCREENSHOTS=1) take each screen four times over.
  if (SCREENSHOTS_DIR) test.describe.configure({ timeout: 120_000 });
  let agent: Rig | undefined;
  test.afterEach(async () => {
    agent?.turns.close('test over');
    await agent?.client.close();
    agent = undefined;
  });

  test('[R19.10][R19.4][R19.11] a short message, a reply sent as exactly its text, "Sent to Codex"', async ({
    app,
    host,
  }) => {
    agent = await rig(host);
    const { page } = app;
    const id = agent.finished({});
    await app.openCard(id);
    await expect(page.getByTestId('card')).toHaveAttribute('data-kind', 'finished-turn');
    await expect(page.getByTestId('turn.status')).toHaveText('Finished');
    await expect(page.getByTestId('turn.message')).toContainText('All 42 tests pass.');
    await expect(page.getByTestId('turn.show-all')).toHaveCount(0);
    await expect(page.getByTestId('card.origin')).toBeVisible();
    await expect(page.getByText('shop', { exact: true })).toBeVisible();
    await expectNoViolations(page, 'finished-turn card');
    await shots(page, 'card-short');

    const send = page.getByTestId('turn.send');
    await expect(send).toBeDisabled();
    const reply = page.getByTestId('turn.reply');
    await reply.fill('Now add a test for eviction.');
    // Enter is a new line, not a send.
    await reply.press('Enter');
    await reply.pressSequentially('Keep it short.');
    await send.click();
    const receipt = page.getByTestId('card.receipt');
    await expect(receipt).toHaveAttribute('data-state', 'sent');
    await expect(page.getByTestId('card.receipt-status')).toContainText('Sent to Codex');
    await expect.poll(() => agent?.delivered).toEqual(['Now add a test for eviction.\nKeep it short.']);
    await expectNoViolations(page, 'finished-turn receipt');
    await shots(page, 'receipt-sent');
  });

  test('[R19.10] a long message starts collapsed, "Show all" opens it; an interrupted and a failed turn say so', async ({
    app,
    host,
  }) => {
    agent = await rig(host);
    const { page } = app;
    const id = agent.finished({ message: LONG });
    await app.openCard(id);
    const message = page.getByTestId('turn.message');
    await expect(message).toHaveAttribute('data-collapsed', 'true');
    const collapsed = (await message.boundingBox())?.height ?? 0;
    await shots(page, 'card-long');
    await page.getByTestId('turn.show-all').click();
    await expect(message).not.toHaveAttribute('data-collapsed', 'true');
    await expect(page.getByTestId('turn.show-all')).toHaveText('Show less');
    await expect(page.getByText('The last line of a long message.')).toBeVisible();
    expect((await message.boundingBox())?.height ?? 0).toBeGreaterThan(collapsed * 2);
    // Nothing of the message is markup: the fence shows as code, not HTML.
    await expect(message.locator('pre code')).toContainText('new Lru<string, Response>');

    const interrupted = agent.finished({ sessionId: 'thread-2', status: 'interrupted', message: 'Halfway.' });
    await app.openCard(interrupted);
    await expect(page.getByTestId('turn.status')).toHaveText('Interrupted');
    const failed = agent.finished({ sessionId: 'thread-3', status: 'failed', error: 'Rate limit reached' });
    await app.openCard(failed);
    await expect(page.getByTestId('turn.status')).toHaveText('Failed (Rate limit reached)');
  });

  test('[R19.6] the agent already working: the phone says so, keeps the reply and copies it', async ({
    app,
    host,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    agent = await rig(host);
    const { page } = app;
    const id = agent.finished({});
    await app.openCard(id);
    agent.busy.now = true;
    await page.getByTestId('turn.reply').fill('Ship it.');
    await page.getByTestId('turn.send').click();
    await expect(page.getByTestId('card.receipt')).toHaveAttribute('data-state', 'busy');
    await expect(page.getByTestId('card.receipt-status')).toHaveText('The agent is already working on something else');
    await expect(page.getByTestId('turn.kept-text')).toHaveText('Ship it.');
    await page.getByTestId('turn.copy').click();
    await expect(page.getByTestId('turn.copy')).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Ship it.');
    expect(agent.delivered).toEqual([]);
    await expectNoViolations(page, 'busy receipt');
    await shots(page, 'receipt-busy');
  });

  test('[R19.5] a prompt typed at the terminal first: the card leaves as "Answered in the terminal"', async ({
    app,
    host,
  }) => {
    agent = await rig(host);
    const { page } = app;
    const id = agent.finished({});
    await app.openCard(id);
    await page.getByTestId('turn.reply').fill('Typed on the phone');
    agent.turns.answeredInTerminal('thread-7f3a');
    await expect(page.getByTestId('card.receipt')).toHaveAttribute('data-state', 'terminal');
    await expect(page.getByTestId('card.receipt-status')).toContainText(FINISHED_TURN_TERMINAL_REASON);
    expect(agent.delivered).toEqual([]);
  });

  test('[R19.7] a reply written offline is sent once the phone is back', async ({ app, host, context }) => {
    agent = await rig(host);
    const { page } = app;
    const id = agent.finished({});
    await app.openCard(id);
    await context.setOffline(true);
    await expect(page.getByTestId('connection.status')).toHaveAttribute('data-status', 'offline');
    await page.getByTestId('turn.reply').fill('Written on the train.');
    await page.getByTestId('turn.send').click();
    await expect(page.getByTestId('card.receipt')).toHaveAttribute('data-state', 'queued');
    expect(agent.delivered).toEqual([]);
    await context.setOffline(false);
    await expect(page.getByTestId('card.receipt')).toHaveAttribute('data-state', 'sent', { timeout: 15_000 });
    await expect.poll(() => agent?.delivered).toEqual(['Written on the train.']);
  });

  test('[R19.4][R19.3] Dismiss ends the card; a newer turn replaces the older one', async ({ app, host }) => {
    agent = await rig(host);
    const { page } = app;
    const first = agent.finished({});
    await app.openCard(first);
    const second = agent.finished({ message: 'A newer turn.' });
    await expect(page.getByTestId('card.receipt')).toHaveAttribute('data-state', 'replaced');
    await expect(page.getByTestId('card.receipt-status')).toHaveText('A newer turn finished');

    await app.openCard(second);
    await page.getByTestId('turn.dismiss').click();
    await expect(page.getByTestId('card.receipt')).toHaveAttribute('data-state', 'dismissed');
    await expect(page.getByTestId('card.receipt-status')).toHaveText('Dismissed');
    expect(agent.delivered).toEqual([]);
  });

  test('[R19.8] the inbox lists finished turns in their own section after the questions, counted apart', async ({
    app,
    host,
    runtime,
  }) => {
    agent = await rig(host);
    const { page } = app;
    const question = await runtime.ask(singleQuestion, { context: { projectName: 'shop' } });
    const older = agent.finished({ sessionId: 'thread-a', message: 'Older turn.' });
    await app.waitForInteraction(older);
    const newer = agent.finished({ sessionId: 'thread-b', status: 'interrupted', message: 'Newer turn.' });
    await app.waitForInteraction(newer);
    await app.goto('/');
    await expect(page.locator('.screen-header__subtitle')).toHaveText('1 waiting · 2 finished');
    const section = page.getByTestId('inbox.finished-turns');
    await expect(section.getByRole('heading', { name: 'Finished turns' })).toBeVisible();
    await expect(section.getByTestId('inbox.item')).toHaveCount(2);
    await expect(section.getByTestId('inbox.item').first()).toHaveAttribute('data-request-id', newer);
    await expect(page.getByTestId('inbox.list').getByTestId('inbox.item')).toHaveAttribute('data-request-id', question);
    // The section follows the questions.
    const listBox = await page.getByTestId('inbox.list').boundingBox();
    const sectionBox = await section.boundingBox();
    expect(sectionBox?.y ?? 0).toBeGreaterThan(listBox?.y ?? 0);
    await expectNoViolations(page, 'inbox with finished turns');
    await shots(page, 'inbox');
  });

  test('[R19.10] a card without a reply box says the editor owns the prompt', async ({ app, host }) => {
    agent = await rig(host);
    const { page } = app;
    const id = agent.finished({ reply: 'none', agent: { kind: 'acp', name: 'Gemini CLI' } });
    await app.openCard(id);
    await expect(page.getByTestId('turn.reply')).toHaveCount(0);
    await expect(page.getByTestId('turn.send')).toHaveCount(0);
    await expect(page.getByTestId('turn.no-reply')).toContainText('runs in an editor, which owns its prompt');
    await expectNoViolations(page, 'finished turn without reply');
    // The editor's next prompt takes it (R19.62): the receipt names the editor, not a terminal.
    agent.turns.answeredInTerminal('thread-7f3a', 'editor');
    await expect(page.getByTestId('card.receipt')).toHaveAttribute('data-state', 'terminal');
    await expect(page.getByTestId('card.receipt-status')).toContainText('Answered in the editor');
  });

  test('[R19.50][R19.53][R19.55] a Claude Code card without a reply box says why: at the desk, replies off, a failed turn', async ({
    app,
    host,
  }) => {
    agent = await rig(host);
    const { page } = app;
    const claudeCode = { kind: 'claude-code', name: 'Claude Code' } as const;
    const cases = [
      { noReply: 'not-away', words: 'did not wait for a reply: you were at your desk', status: 'completed' },
      { noReply: 'switched-off', words: 'askaway hook install --no-reply', status: 'completed' },
      { noReply: 'turn-failed', words: 'cannot go on from a failed turn here', status: 'failed' },
    ] as const;
    for (const [index, { noReply, words, status }] of cases.entries()) {
      const id = agent.finished({
        sessionId: `cc-session-${index}`,
        reply: 'none',
        noReply,
        status,
        agent: claudeCode,
        ...(status === 'failed' ? { error: 'API Error: 400 model refused', message: undefined } : {}),
      });
      await app.openCard(id);
      await expect(page.getByTestId('turn.reply')).toHaveCount(0);
      await expect(page.getByTestId('turn.no-reply')).toHaveAttribute('data-reason', noReply);
      await expect(page.getByTestId('turn.no-reply')).toContainText(words);
      if (noReply === 'not-away') await shots(page, 'card-not-away');
    }
    await expectNoViolations(page, 'Claude Code card without reply');
  });

  test('[R19.50] Settings → Away switches "I\'m away from my desk" for every device, as askaway away does', async ({
    app,
    host,
  }) => {
    const { page } = app;
    await app.goto('/settings');
    const away = page.getByTestId('settings.away');
    await expect(away).not.toBeChecked();
    await expect(page.getByTestId('settings.away-explain')).toContainText('Claude Code ends its turns at once');
    await away.click();
    await expect(away).toBeChecked();
    await expect(page.getByTestId('settings.away-explain')).toContainText('Claude Code waits for your reply here');
    // What a Claude Code hook asks the host with its credential.
    await expect
      .poll(async () => {
        const reply = await fetch(`${host.url}/api/agent/away`, { headers: { Authorization: `Bearer ${host.token}` } });
        return ((await reply.json()) as { away?: boolean }).away;
      })
      .toBe(true);
    await shots(page, 'settings-away');
    await expectNoViolations(page, 'settings with away');
    // `askaway away off` on the host: the switch follows at once.
    expect(ownerCli(host, ['away', 'off'])).toContain('At your desk');
    await expect(away).not.toBeChecked();
  });

  test('[R19.9] Settings → Notifications → Finished turns switches their notifications off for every device', async ({
    app,
  }) => {
    const { page } = app;
    await app.goto('/settings');
    const toggle = page.getByTestId('settings.push-turns');
    await expect(toggle).toBeChecked();
    await expect(page.getByTestId('settings.push-turns-explain')).toContainText('with the first line of what it said');
    await toggle.click();
    await expect(toggle).not.toBeChecked();
    await expect(page.getByTestId('settings.push-turns-explain')).toContainText('still show in the inbox');
    await expect
      .poll(() => page.evaluate(() => window.__askaway?.state.host.preferences?.notifyFinishedTurns))
      .toBe(false);
  });
});

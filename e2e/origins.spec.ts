import { expect, test } from './support/fixtures';
import { singleQuestion, threeQuestions } from './support/payloads';

const reviewerTests = { kind: 'subagent' as const, label: 'tests', path: ['reviewer', 'tests'], depth: 2 };
const reviewer = { kind: 'subagent' as const, label: 'reviewer', path: ['reviewer'], depth: 1 };

test('[R9.6][R7.3] subagent origin labels on inbox items and cards; the sessions view shows the tree', async ({
  app,
  runtime,
}) => {
  const { page } = app;
  const root = await runtime.ask(singleQuestion, { sessionId: 'sess-tree-1', context: { cwd: '/home/ada/src/shop' } });
  const deep = await runtime.ask(threeQuestions, {
    sessionId: 'sess-tree-1',
    origin: reviewerTests,
    context: { cwd: '/home/ada/src/shop' },
  });
  const mid = await runtime.permission('Bash', { command: 'npm test' }, { sessionId: 'sess-tree-1', origin: reviewer });
  await app.waitForInteraction(mid);
  await expect(app.inbox.item(deep).getByTestId('origin')).toHaveText('reviewer › tests');
  await expect(app.inbox.item(mid).getByTestId('origin')).toHaveText('reviewer');
  await expect(app.inbox.item(root).getByTestId('origin')).toHaveCount(0);
  await expect(page.getByTestId('inbox.group')).toHaveCount(1);
  await expect(page.getByTestId('inbox.group')).toContainText('src/shop');

  await app.openCard(deep);
  await expect(page.getByTestId('card.origin')).toHaveText('reviewer › tests');

  await page.getByTestId('card.back-to-inbox').click();
  await page.getByTestId('nav.sessions').click();
  const nodes = page.getByTestId('sessions.node');
  await expect(nodes).toHaveCount(3);
  await expect(nodes.nth(0)).toHaveAttribute('data-name', 'main agent');
  await expect(nodes.nth(1)).toHaveAttribute('data-name', 'reviewer');
  await expect(nodes.nth(2)).toHaveAttribute('data-name', 'tests');
  await expect(nodes.nth(2)).toHaveAttribute('data-depth', '2');
  await expect(nodes.nth(1).getByTestId('sessions.node-toggle').first()).toContainText('2 pending');
  await nodes.nth(2).getByTestId('sessions.node-toggle').click();
  const prompt = nodes.nth(2).getByTestId('sessions.prompt');
  await expect(prompt).toHaveCount(1);
  await prompt.click();
  await expect(page.getByTestId('card')).toHaveAttribute('data-request-id', deep);
});

test('[R9.7] history summarizes each ending and filters by session', async ({ app, runtime }) => {
  const { page } = app;
  const a = await runtime.ask(threeQuestions, { sessionId: 'sess-h-a' });
  const b = await runtime.ask(singleQuestion, { sessionId: 'sess-h-b' });
  const card = await app.openCard(a);
  await card.choose(0, 'MySQL');
  await card.skip(1);
  await card.skip(2);
  await card.submit();
  await expect(card.receipt).toHaveAttribute('data-state', /delivered|applied/);
  await runtime.withdraw(b, 'No longer needed');
  await app.waitForInteraction(b, 'withdrawn');
  await page.getByTestId('card.back-to-inbox').click();
  await page.getByTestId('nav.history').click();
  const items = page.getByTestId('history.item');
  await expect(items).toHaveCount(2);
  await expect(page.locator(`[data-testid="history.item"][data-request-id="${a}"]`)).toHaveAttribute(
    'data-summary',
    'partly',
  );
  await expect(page.locator(`[data-testid="history.item"][data-request-id="${a}"]`)).toContainText(
    'Partly answered (1 of 3)',
  );
  await expect(page.locator(`[data-testid="history.item"][data-request-id="${b}"]`)).toContainText(
    'Withdrawn by the agent',
  );
  // Options name a session by its short id ("sess-h-b" reads "h-b"); their values also name its machine.
  const filter = page.getByTestId('history.filter');
  const sessionB = await filter.locator('option', { hasText: 'h-b' }).getAttribute('value');
  expect(sessionB).toMatch(/\/sess-h-b$/);
  await filter.selectOption(sessionB ?? '');
  await expect(items).toHaveCount(1);
});

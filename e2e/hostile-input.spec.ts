import { expect, test } from './support/fixtures';
import { singleQuestion } from './support/payloads';
import { ScriptedRuntime } from './support/scripted-runtime';

test('[R12.7] more waiting than the first page holds: the inbox says how many and loads them on a tap', async ({
  app,
  host,
}) => {
  test.slow();
  const { page } = app;
  // 150 prompts of 19 KB each: more than the 2 MiB first page. Two runtimes, so neither hits the rate of new ones.
  const agents = [new ScriptedRuntime(host.url, host.token), new ScriptedRuntime(host.url, host.token)];
  await Promise.all(agents.map((agent) => agent.connected()));
  const blob = 'x'.repeat(19_000);
  const ids = await Promise.all(
    Array.from({ length: 150 }, (_, index) =>
      (agents[index % 2] ?? agents[0])?.permission('Bash', { command: `step ${index}`, blob }),
    ),
  );
  try {
    await page.reload();
    await app.waitConnected();
    const more = page.getByTestId('inbox.more');
    await expect(more).toBeVisible();
    const shown = await page.getByTestId('inbox.item').count();
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(150);
    await expect(more).toContainText(`${150 - shown} more waiting`);
    await expect(page.locator('.screen-header__subtitle')).toContainText('150');
    await page.getByTestId('inbox.more-load').click();
    await expect(page.getByTestId('inbox.item')).toHaveCount(150);
    await expect(more).toHaveCount(0);
    expect(ids).toHaveLength(150);
  } finally {
    for (const agent of agents) agent.close();
  }
});

test('[R12.3] a huge tool input opens as a screenful, with the whole input one tap away', async ({ app, runtime }) => {
  const { page } = app;
  // Deep and wide, within the contracts' limits: pretty-printed it is tens of thousands of characters.
  let nested: unknown = Array.from({ length: 40 }, (_, index) => ({ index, value: 'y'.repeat(20) }));
  for (let level = 0; level < 18; level += 1) nested = { level, nested };
  const id = await runtime.permission('mcp__big__tool', { payload: nested });
  await app.openCard(id);
  const box = page.getByTestId('card.permission-input');
  const first = (await box.textContent()) ?? '';
  expect(first.length).toBeLessThanOrEqual(4_100);
  expect(first.endsWith('…')).toBe(true);
  await page.getByTestId('card.permission-whole').click();
  await expect(page.getByTestId('card.permission-whole')).toHaveCount(0);
  expect(((await box.textContent()) ?? '').length).toBeGreaterThan(first.length * 2);
  await expect(page.getByTestId('card.approve')).toBeVisible();
});

test('[R12.8] outside text is isolated: a bidi control in a question reorders only itself', async ({
  app,
  runtime,
}) => {
  const { page } = app;
  const [first] = singleQuestion.questions;
  if (!first) throw new Error('the fixture has a question');
  const id = await runtime.ask({ questions: [{ ...first, question: 'Deploy \u202etsrif siht\u202c now?' }] });
  await expect(app.inbox.item(id)).toBeVisible();
  const inboxTitle = app.inbox.item(id).locator('.inbox-item__title');
  expect(await inboxTitle.evaluate((element) => getComputedStyle(element).unicodeBidi)).toBe('isolate');
  await app.openCard(id);
  const text = page.locator('.question__text');
  expect(await text.evaluate((element) => getComputedStyle(element).unicodeBidi)).toBe('isolate');
});

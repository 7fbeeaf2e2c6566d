import { expect, test } from './support/fixtures';
import { singleQuestion } from './support/payloads';
import { ScriptedRuntime } from './support/scripted-runtime';

// What the inbox says about itself agrees with what it lists, right after it changes.

test('[R12.7] a withdrawn card leaves the header and the list agreeing: nothing waiting, at once', async ({
  app,
  runtime,
}) => {
  const { page } = app;
  const subtitle = page.locator('.screen-header__subtitle');
  const first = await runtime.ask(singleQuestion);
  await expect(app.inbox.item(first)).toBeVisible();
  await expect(subtitle).toHaveText('1 waiting');

  await runtime.withdraw(first, 'Answered in the terminal');
  await expect(page.getByTestId('inbox.empty')).toBeVisible();
  await expect(subtitle).toHaveText('Nothing waiting');

  // The same for one of two, and for a new one after it: the count follows each change.
  const second = await runtime.ask(singleQuestion);
  const third = await runtime.ask(singleQuestion);
  await expect(app.inbox.items).toHaveCount(2);
  await expect(subtitle).toHaveText('2 waiting');
  await runtime.withdraw(second);
  await expect(app.inbox.items).toHaveCount(1);
  await expect(subtitle).toHaveText('1 waiting');
  await expect(app.inbox.item(third)).toBeVisible();
});

test('[R17.6] a question from an agent that has just connected never shows as waiting for its machine', async ({
  app,
  host,
  runtime,
}) => {
  const { page } = app;
  // No agent connected: the hub is away.
  runtime.close();
  await expect.poll(() => page.evaluate(() => window.__askaway?.state.host.machines[0]?.connectedAgents)).toBe(0);
  // Every "waiting for" line the inbox ever shows from now on, however briefly.
  await page.evaluate(() => {
    const seen: string[] = [];
    Object.assign(window, { __waitingLines: seen });
    new MutationObserver(() => {
      for (const line of document.querySelectorAll('[data-testid="inbox.waiting-for-machine"]'))
        seen.push(line.textContent ?? '');
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  // An agent that connects to ask, as a hook or `askaway ask` does, and asks at once.
  const asker = new ScriptedRuntime(host.url, host.token);
  try {
    const id = await asker.ask(singleQuestion);
    await expect(app.inbox.item(id)).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.__askaway?.state.host.machines[0]?.connectedAgents)).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { __waitingLines: string[] }).__waitingLines)).toEqual([]);
  } finally {
    asker.close();
  }
});

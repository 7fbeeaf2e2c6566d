import { expect, test } from './support/fixtures';
import { hostilePreviews } from './support/payloads';

const BEACON = 'http://beacon.askaway.invalid';

test('[R12.2] hostile HTML previews never run script, set globals or load anything', async ({ app, runtime, host }) => {
  const { page } = app;
  const dialogs: string[] = [];
  const requests: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.context().on('request', (request) => {
    if (!request.url().startsWith(host.url) || /\/x$/.test(request.url())) requests.push(request.url());
  });
  const input = hostilePreviews(BEACON);
  const requestId = await runtime.ask(input);
  const card = await app.openCard(requestId);
  const frame = page.getByTestId('card.preview-frame');
  for (const option of input.questions[0]?.options ?? []) {
    await card.option(0, option.label).click();
    await expect(page.getByTestId('card.preview')).toHaveAttribute('data-label', option.label);
    await expect(frame).toHaveAttribute('sandbox', '');
    const srcdoc = (await frame.getAttribute('srcdoc')) ?? '';
    expect(
      srcdoc.startsWith(
        `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
      ),
    ).toBe(true);
    expect(srcdoc).not.toMatch(/onerror|onbegin|javascript:|<form|<object|<iframe|<link/i);
    // The frame has really rendered (its document exists) before we look for effects.
    await expect(page.frameLocator('[data-testid="card.preview-frame"]').locator('body')).toBeAttached();
  }
  // Try clicking the link inside the sandbox too.
  await card.option(0, 'javascript link').click();
  await page.frameLocator('[data-testid="card.preview-frame"]').getByText('click').click();
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  expect(dialogs).toEqual([]);
  expect(requests).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
});

test('[R12.2] a hostile plan renders as markdown without active or loading elements', async ({
  app,
  runtime,
  host,
}) => {
  const { page } = app;
  const requests: string[] = [];
  page.context().on('request', (request) => {
    if (!request.url().startsWith(host.url)) requests.push(request.url());
  });
  const plan = [
    '# Plan',
    `<img src="${BEACON}/img.png"><video src="${BEACON}/v.mp4"></video><audio src="${BEACON}/a.mp3"></audio>`,
    `<picture><source srcset="${BEACON}/p.png"></picture><textarea>typed</textarea><select><option>x</option></select>`,
    '<script>window.__pwned = 1</script><svg><image href="x.png" /></svg>',
    '',
    '1. Add the **cache** layer',
  ].join('\n');
  const requestId = await runtime.plan(plan);
  await app.openCard(requestId);
  const rendered = page.locator('div.markdown[data-testid="card.plan"]');
  await expect(rendered.getByText('cache')).toBeVisible();
  expect(await rendered.innerHTML()).not.toMatch(/<(?:img|video|audio|picture|source|textarea|select|script|svg)\b/i);
  expect(requests).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
});

test('[R16.7] an old shared-token link gets the plain page, and the token leaves the address bar', async ({
  page,
  host,
}) => {
  await page.goto(`${host.url}/pair#token=${encodeURIComponent(host.token)}`);
  await expect(page.getByTestId('pair.invalid')).toContainText('This pairing link no longer works');
  await expect(page.getByTestId('pair.invalid')).toContainText('askaway pair');
  expect(new URL(page.url()).hash).toBe('');
  expect(await page.evaluate(() => localStorage.getItem('askaway.pairing'))).toBeNull();
});

test('[R9.2] an unreachable host is named on the pairing page', async ({ page, host }) => {
  await page.goto(`${host.url}/pair`);
  await expect(page.getByTestId('pair.form')).toHaveAttribute('data-mode', 'manual');
  await page.getByTestId('pair.host').fill('http://127.0.0.1:9');
  await page.getByTestId('pair.code').fill('ABCDE-FGHJK-MNPQR-STVWX');
  await page.getByTestId('pair.submit').click();
  await expect(page.getByTestId('pair.error')).toContainText('Cannot reach the host at http://127.0.0.1:9', {
    timeout: 15_000,
  });
});

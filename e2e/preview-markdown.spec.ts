import { expect, test } from './support/fixtures';
import { markdownPreviewQuestion, DIAGRAM_PREVIEW } from './support/payloads';

// R9.15: text previews render the way agents write them: code without its fences, structure as structure, and
// drawings unwrapped.

test('[R9.15] a markdown preview shows fenced code as code, without the fences; a diagram keeps its lines and scrolls sideways', async ({
  app,
  runtime,
}) => {
  const requestId = await runtime.ask(markdownPreviewQuestion);
  const card = await app.openCard(requestId);
  const preview = card.page.getByTestId('card.preview');

  await card.option(0, 'Versioned prefix (Recommended)').click();
  const text = preview.getByTestId('card.preview-text');
  const code = text.locator('pre code');
  await expect(code).toHaveText(
    'const key = `catalog:v3:product:${id}`;\nawait cache.set(key, product, { ttl: 3600 });',
  );
  await expect(text).not.toContainText('```');
  await expect(text.locator('pre')).toHaveAttribute('data-lang', 'ts');
  await expect(code.locator('.tok-keyword').first()).toHaveText('const');
  await expect(text.getByRole('heading', { name: 'Key format' })).toBeVisible();
  await expect(text.locator('li')).toHaveText(['One purge per version', 'Readable in redis-cli']);

  await card.option(0, 'Hash of query').click();
  const diagram = preview.getByTestId('card.preview-text').locator('pre');
  await expect(diagram).toHaveText(DIAGRAM_PREVIEW);
  const layout = await diagram.evaluate((element) => ({
    whiteSpace: getComputedStyle(element).whiteSpace,
    fontFamily: getComputedStyle(element).fontFamily,
    scrolls: element.scrollWidth > element.clientWidth,
    lineHeight: parseFloat(getComputedStyle(element).lineHeight),
    height: element.clientHeight,
  }));
  expect(layout.whiteSpace).toBe('pre');
  expect(layout.fontFamily).toMatch(/mono/i);
  // Five lines as written, none wrapped: wider than the box, it scrolls instead.
  expect(Math.round(layout.height / layout.lineHeight)).toBe(DIAGRAM_PREVIEW.split('\n').length);
  expect(layout.scrolls).toBe(true);
});

import { expect, test } from './support/fixtures';
import { markdownPreviewQuestion, DIAGRAM_PREVIEW } from './support/payloads';

// R9.15: text previews render the way agents write them: code without its fences, structure as structure, and
// drawings unwrapped; tables with their columns' alignment.

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

  await card.option(0, 'Per-table namespace').click();
  const table = preview.getByTestId('card.preview-text').locator('table');
  await expect(table.locator('th')).toHaveText(['Key', 'TTL (s)', 'Purged']);
  await expect(table.locator('tbody tr')).toHaveCount(2);
  await expect(table.locator('tbody tr').first().locator('td')).toHaveText([
    'catalog:product:<id>',
    '3600',
    'by table',
  ]);
  const align = await table
    .locator('tbody tr')
    .first()
    .locator('td')
    .evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell).textAlign));
  expect(align).toEqual(['left', 'right', 'center']);
  await expect(preview.locator('li[data-task]')).toHaveText(['☑ Readable in redis-cli', '☐ One purge per version']);
  await expect(preview).not.toContainText('|');
});

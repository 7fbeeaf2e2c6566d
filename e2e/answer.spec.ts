import { formatModelContent } from '../lib/core/format-model-content';
import {
  AskUserQuestionAnsweredInputSchema,
  type AskUserQuestionInputLike,
  type InteractionResolution,
} from '../lib/contracts';
import { expect, test } from './support/fixtures';
import { previewQuestion, singleQuestion, SQL_PREVIEW, STORAGE_QUESTION, threeQuestions } from './support/payloads';
import { type ScriptedRuntime } from './support/scripted-runtime';

/** Waits for the runtime to receive the resolution, and returns the R4 text the model would read. */
async function delivered(runtime: ScriptedRuntime, requestId: string, input: AskUserQuestionInputLike) {
  await expect.poll(() => runtime.resolutionsFor(requestId).length).toBeGreaterThan(0);
  const resolution = runtime.resolutionsFor(requestId)[0] as InteractionResolution;
  expect(resolution.response.action).toBe('accept');
  const content = resolution.response.action === 'accept' ? resolution.response.content : undefined;
  const answered = AskUserQuestionAnsweredInputSchema.parse({
    ...input,
    answers: content?.answers,
    annotations: content?.annotations,
  });
  return { resolution, content, text: formatModelContent({ ...answered, answers: content?.answers ?? {} }) };
}

test('[R9.3] single select: the exact label (with its Recommended suffix) reaches the runtime; the card becomes a receipt', async ({
  app,
  runtime,
}) => {
  const requestId = await runtime.ask(singleQuestion);
  await app.waitForInteraction(requestId);
  const item = app.inbox.item(requestId);
  await expect(item).toContainText(STORAGE_QUESTION);
  await item.click();
  const card = app.card();
  // "(Recommended)" is a badge, not part of the visible label.
  await expect(card.option(0, 'Redis (Recommended)')).toContainText('Redis');
  await expect(card.option(0, 'Redis (Recommended)').getByTestId('card.recommended')).toBeVisible();
  await expect(card.option(0, 'Redis (Recommended)')).not.toContainText('(Recommended)');
  await card.choose(0, 'Redis (Recommended)');
  await card.submit();
  const { content, text } = await delivered(runtime, requestId, singleQuestion);
  expect(content).toEqual({ answers: { [STORAGE_QUESTION]: 'Redis (Recommended)' } });
  expect(text).toBe(
    `User has answered your questions: "${STORAGE_QUESTION}"="Redis (Recommended)". You can now continue with the user's answers in mind.`,
  );
  await expect(card.receipt).toHaveAttribute('data-state', /delivered|applied/);
  await expect(card.page.getByTestId('card.receipt-status')).toContainText('Answered · delivered');
  await expect(card.page.getByTestId('card.receipt-applied')).toContainText('Received by the agent');
});

test('[R9.3] after answering, the primary action leads to the next waiting question, then back to the inbox', async ({
  app,
  runtime,
}) => {
  const first = await runtime.ask(singleQuestion);
  const second = await runtime.ask(previewQuestion);
  const card = await app.openCard(first);
  await card.choose(0, 'Redis (Recommended)');
  await card.submit();
  await expect(card.receipt).toBeVisible();
  const next = card.page.getByTestId('card.next-pending');
  await expect(next).toHaveText('Next question');
  await next.click();
  await expect(card.page).toHaveURL(new RegExp(`/card\\?id=${second}`));
  await card.skipAll();
  await expect(card.receipt).toBeVisible();
  await expect(next).toHaveText('Back to inbox');
});

test('[R2.9][R9.11] multi select, Other and notes across steps; answers kept going back and forth', async ({
  app,
  runtime,
}) => {
  const requestId = await runtime.ask(threeQuestions);
  const card = await app.openCard(requestId);
  await card.choose(0, 'MySQL');
  await card.note(0, 'We already run it in prod');
  await card.choose(1, 'Export');
  await card.choose(1, 'Search');
  await card.show(1);
  await card.question(1).getByTestId('card.option-other').click();
  await card.question(1).getByTestId('card.other-input').fill('Offline mode');
  await card.other(2, 'jot');
  // Going back keeps what was chosen (phone: stepped; desktop: all on screen).
  await card.show(0);
  await expect(card.option(0, 'MySQL')).toHaveAttribute('data-checked', 'true');
  await card.submit();
  const { content, text } = await delivered(runtime, requestId, threeQuestions);
  expect(content).toEqual({
    answers: {
      'Which database should we use?': 'MySQL',
      // Chosen labels in option order, then the typed text.
      'Which features should ship first?': 'Search, Export, Offline mode',
      'What should the CLI be called?': 'jot',
    },
    annotations: { 'Which database should we use?': { notes: 'We already run it in prod' } },
  });
  expect(text).toContain('"Which database should we use?"="MySQL" user notes: We already run it in prod');
  expect(text).toContain("You can now continue with the user's answers in mind.");
});

test('[R9.4][R4.5] the chosen option preview goes back in annotations.preview', async ({ app, runtime }) => {
  const requestId = await runtime.ask(previewQuestion);
  const card = await app.openCard(requestId);
  const preview = card.page.getByTestId('card.preview');
  await card.option(0, 'Table').click();
  await expect(preview.locator('pre')).toHaveText(SQL_PREVIEW);
  await card.option(0, 'Cards (Recommended)').click();
  await expect(preview.getByTestId('card.preview-frame')).toHaveAttribute('sandbox', '');
  await card.option(0, 'Table').click();
  await card.submit();
  const { content, text } = await delivered(runtime, requestId, previewQuestion);
  expect(content).toEqual({
    answers: { 'Which layout should the settings page use?': 'Table' },
    annotations: { 'Which layout should the settings page use?': { preview: SQL_PREVIEW } },
  });
  expect(text).toContain(`selected preview:\n${SQL_PREVIEW}`);
});

test('[R4.2][R9.11] skip one question: it is absent from answers and the partial tier is used', async ({
  app,
  runtime,
}) => {
  const requestId = await runtime.ask(threeQuestions);
  const card = await app.openCard(requestId);
  await card.choose(0, 'Postgres (Recommended)');
  await card.skip(1);
  await card.other(2, '   ');
  await card.show(2);
  // An empty "Other" neither cancels the card nor loses the answers given.
  await card.question(2).getByTestId('card.option-other').click();
  await card.option(2, 'notes').click();
  await card.submit();
  const { content, text } = await delivered(runtime, requestId, threeQuestions);
  expect(content?.answers).toEqual({
    'Which database should we use?': 'Postgres (Recommended)',
    'What should the CLI be called?': 'notes',
  });
  expect(text).toContain('answered some questions and skipped 1');
  expect(text.toLowerCase()).toContain(
    'use your best judgment for the unanswered questions; do not invent user preferences.',
  );
});

test('[R5.3][R4.3] skip all sends answers: {} and the zero-answer tier', async ({ app, runtime }) => {
  const requestId = await runtime.ask(threeQuestions);
  const card = await app.openCard(requestId);
  await card.skipAll();
  const { content, text } = await delivered(runtime, requestId, threeQuestions);
  expect(content).toEqual({ answers: {} });
  expect(text).toContain(
    'Continue using your best judgment; do not treat this as a rejection or invent a user preference.',
  );
  await expect(card.receipt).toBeVisible();
});

test('[R3.7] decline with a reason', async ({ app, runtime }) => {
  const requestId = await runtime.ask(singleQuestion);
  const card = await app.openCard(requestId);
  await card.decline('Ask me after lunch');
  await expect
    .poll(() => runtime.resolutionsFor(requestId)[0]?.response)
    .toEqual({ action: 'decline', message: 'Ask me after lunch' });
  await expect(card.page.getByTestId('response.declined')).toContainText('Ask me after lunch');
});

// A skip decided before the test's fixtures: one inside it would start a host and pair a phone first.
test.describe(() => {
  test.skip(({ isMobile }) => isMobile, 'keyboard shortcuts are for desktop');
  test('[R9.3] desktop keyboard: number keys pick options, Enter submits', async ({ app, runtime }) => {
    const requestId = await runtime.ask(singleQuestion);
    const card = await app.openCard(requestId);
    await card.option(0, 'SQLite').focus();
    await app.page.keyboard.press('3');
    await expect(card.option(0, 'Memcached')).toHaveAttribute('data-checked', 'true');
    await app.page.keyboard.press('Enter');
    const { content } = await delivered(runtime, requestId, singleQuestion);
    expect(content).toEqual({ answers: { [STORAGE_QUESTION]: 'Memcached' } });
  });
});

test('[R9.8][R10.4] an answer the host refuses can be corrected and sent again; the card is not stuck on the error', async ({
  app,
  runtime,
}) => {
  const requestId = await runtime.ask(threeQuestions);
  const card = await app.openCard(requestId);
  await card.choose(1, 'Search');
  await card.choose(1, 'Export');
  // The typed text fits the box, but joined with the labels the answer is over the host's 2,000 characters.
  await card.other(1, 'x'.repeat(1_995));
  await card.submit();
  await expect(card.page.getByTestId('card.send-error')).toBeVisible();
  expect(runtime.resolutionsFor(requestId)).toHaveLength(0);

  // Back to the form with everything still chosen (phone: from the review; desktop: the form never left).
  const edit = card.page.getByTestId('card.review-edit');
  if (await card.stepped()) await edit.nth(1).click();
  else await expect(edit).toHaveCount(0);
  await expect(card.option(1, 'Export')).toHaveAttribute('data-checked', 'true');
  await card.question(1).getByTestId('card.other-input').fill('Offline mode');
  await card.submit();
  await expect.poll(() => runtime.resolutionsFor(requestId).length).toBe(1);
  const resolution = runtime.resolutionsFor(requestId)[0] as InteractionResolution;
  expect(resolution.response).toEqual({
    action: 'accept',
    content: { answers: { 'Which features should ship first?': 'Search, Export, Offline mode' } },
  });
  await expect(card.receipt).toHaveAttribute('data-state', /delivered|applied/);
});

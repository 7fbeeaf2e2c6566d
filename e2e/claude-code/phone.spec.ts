import { expect, test } from './support/fixtures';
import {
  askUserQuestion,
  choice,
  claudeCodeSays,
  DB_QUESTION,
  dbQuestion,
  finish,
  onPhone,
  runSdk,
} from './support/scenarios';

// The whole path with the real PWA: Claude Code → hook → host → the card in Chromium → tap → Claude Code.

test('[R11.2] answered on the real card: single and multi-select (a label with a comma) read as clean answers', async ({
  claude,
  phone,
  remote,
  workspace,
}) => {
  const marker = 'E2E-pwa';
  const stores = choice('Which stores should we support?', 'Stores', ['Postgres', 'SQLite, embedded', 'Redis'], true);
  const ws = await workspace([{ marker, turns: [askUserQuestion('toolu_pwa', { questions: [dbQuestion, stores] })] }]);
  const session = runSdk(claude, ws, `${marker}: set up the service`);
  const record = await onPhone(remote, session);

  const card = await phone.openCard(record.requestId);
  await card.choose(0, 'Postgres');
  await card.choose(1, 'Postgres');
  await card.choose(1, 'SQLite, embedded');
  await card.submit();
  await expect(card.receipt).toBeVisible();

  const result = await finish(session, ws, 'toolu_pwa');
  // Claude Code's own join: a label holding ", " is quoted, or its wording turns to "The user answered: …".
  expect(result.content).toBe(
    claudeCodeSays.answered(`"${DB_QUESTION}"="Postgres", "${stores.question}"="Postgres, "SQLite, embedded""`),
  );
  await expect(phone.page.getByTestId('card.receipt-applied')).toContainText('Received by the agent');
});

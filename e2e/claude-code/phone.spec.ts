import { expect, test } from './support/fixtures';
import { type ScriptedTurn } from './support/model-server';
import {
  planFileIn,
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
  // The SDK host keeps its own prompt open, as a person at the desk would: the phone answers first.
  const session = runSdk(claude, ws, `${marker}: set up the service`, { answerAfterMs: 'never' });
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

test('[R3.7] a plan rejected on the real card: the model reads the feedback typed on the phone', async ({
  claude,
  phone,
  remote,
  workspace,
}) => {
  const marker = 'E2E-pwa-plan';
  const write: ScriptedTurn = (request) => [
    {
      type: 'tool_use',
      id: 'toolu_pwa_write',
      name: 'Write',
      input: { file_path: planFileIn(request), content: '# Plan\n\n1. Drop the **legacy** table' },
    },
  ];
  const ws = await workspace([
    { marker, turns: [write, [{ type: 'tool_use', id: 'toolu_pwa_plan', name: 'ExitPlanMode', input: {} }]] },
  ]);
  const session = runSdk(claude, ws, `${marker}: clean up`, {
    args: ['--permission-mode', 'plan'],
    answerAfterMs: 15_000,
  });
  const record = await onPhone(remote, session);

  const card = await phone.openCard(record.requestId);
  await expect(card.root.locator('strong', { hasText: 'legacy' })).toBeVisible();
  await expect(phone.page.getByTestId('card.plan-file')).toContainText('.claude/plans/');
  await phone.page.getByTestId('card.reject').click();
  await phone.page.getByTestId('card.reject-dialog-reason').fill('keep the table, archive it instead');
  await phone.page.getByTestId('card.reject-dialog-confirm').click();

  const result = await finish(session, ws, 'toolu_pwa_plan');
  expect(result).toMatchObject({
    isError: true,
    content: 'The user rejected the plan: keep the table, archive it instead',
  });
  expect(session.canUseTool[0]).toMatchObject({ cancelled: true, answered: false });
});

import { type AgentRef } from '../lib/contracts';
import { axeViolations } from './support/axe';
import { expect, test } from './support/fixtures';

// The agent as a dimension (R18.1): named once a second agent is on record, filtered like machines.

const CLAUDE: AgentRef = { kind: 'claude-code', name: 'Claude Code', version: '2.1.332' };
const OPENCODE: AgentRef = { kind: 'opencode', name: 'OpenCode', version: '1.18.33' };
const QUESTION = {
  questions: [
    {
      question: 'Which database?',
      header: 'Database',
      multiSelect: false,
      options: [
        { label: 'SQLite', description: 'a file' },
        { label: 'Postgres', description: 'a server' },
      ],
    },
  ],
};

test('[R18.1] with one agent the screens name none; a second agent puts a chip on every prompt and a filter on Sessions and History', async ({
  app,
  runtime,
}) => {
  const { page } = app;
  const first = await runtime.ask(QUESTION, { sessionId: 'claude-1', agent: CLAUDE });
  await app.waitForInteraction(first);
  await expect(page.getByTestId('inbox.item')).toHaveCount(1);
  await expect(page.getByTestId('agent-chip')).toHaveCount(0);
  await app.openCard(first);
  await expect(page.getByTestId('card')).toBeVisible();
  await expect(page.getByTestId('agent-chip')).toHaveCount(0);

  await app.goto('/');
  const codex = await runtime.agentQuestion(QUESTION, { sessionId: 'codex-1' });
  const opencode = await runtime.permission('bash', { command: 'npm test' }, { sessionId: 'oc-1', agent: OPENCODE });
  await app.waitForInteraction(opencode);
  const chips = page.getByTestId('inbox.item').getByTestId('agent-chip');
  await expect(chips).toHaveCount(3);
  await expect(page.getByTestId('inbox.item').filter({ has: page.locator('[data-agent="codex"]') })).toHaveAttribute(
    'data-request-id',
    codex,
  );
  // Screen readers hear the word and the version, as the title says them.
  await expect(page.locator(`[data-request-id="${codex}"] [data-testid="agent-chip"]`)).toHaveAttribute(
    'title',
    'Agent: Codex 0.171.0',
  );
  await expect(page.locator(`[data-testid="inbox.item"][data-request-id="${codex}"]`)).toHaveAccessibleName(
    /Agent: Codex 0\.171\.0/,
  );

  const card = await app.openCard(codex);
  await expect(page.getByTestId('card').getByTestId('agent-chip')).toHaveAttribute('data-agent', 'codex');
  await card.choose(0, 'Postgres');
  await card.submit();
  await expect(page.getByTestId('card.receipt-applied').getByTestId('agent-chip')).toHaveAttribute(
    'data-agent',
    'codex',
  );

  await runtime.withdraw(first, 'Answered in the terminal');
  await runtime.withdraw(opencode, 'OpenCode closed');
  await app.goto('/history');
  const entries = page.getByTestId('history.item');
  await expect(entries).toHaveCount(3);
  const filter = page.getByTestId('agent-filter');
  await expect(filter.getByRole('radio')).toHaveCount(4);
  expect(await axeViolations(page)).toEqual([]);
  await filter.getByRole('radio', { name: 'Codex' }).check();
  await expect(entries).toHaveCount(1);
  await expect(entries.getByTestId('agent-chip')).toHaveAttribute('data-agent', 'codex');

  // Remembered on this device, for Sessions too.
  await app.goto('/sessions');
  await expect(page.getByTestId('agent-filter').getByRole('radio', { name: 'Codex' })).toBeChecked();
  const sessions = page.getByTestId('sessions.session');
  await expect(sessions).toHaveCount(1);
  await expect(sessions).toHaveAttribute('data-session-id', 'codex-1');
  await page.getByTestId('agent-filter').getByRole('radio', { name: 'All agents' }).check();
  await expect(sessions).toHaveCount(3);
  await expect(sessions.getByTestId('agent-chip')).toHaveCount(3);
});

test('[R18.25][R18.6] an answer the agent refused because its terminal answered first: the receipt and History say the terminal won', async ({
  app,
  runtime,
}) => {
  const { page } = app;
  const requestId = await runtime.ask(QUESTION, { sessionId: 'oc-race', agent: OPENCODE });
  const card = await app.openCard(requestId);
  await card.choose(0, 'Postgres');
  await card.submit();
  await expect(page.getByTestId('card.receipt-applied')).toContainText('Received by the agent');

  // OpenCode answered 404: the terminal's answer reached it a moment before the phone's.
  await runtime.withdraw(requestId, 'Answered in the terminal', {}, { afterAnswer: true });
  await expect(page.getByTestId('card.receipt')).toHaveAttribute('data-state', 'terminal');
  await expect(page.getByTestId('card.receipt-status')).toContainText('Answered in the terminal');
  await expect(page.getByTestId('card.receipt-applied')).toHaveCount(0);

  await app.goto('/history');
  const entry = page.locator(`[data-testid="history.item"][data-request-id="${requestId}"]`);
  await expect(entry.getByTestId('history.summary')).toHaveText('Answered in the terminal');
});

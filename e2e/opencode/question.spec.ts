import { QUESTION_DECLINE_NOTE } from '../../lib/runtime/agents/opencode/to-interaction';
import { ANSWERED_IN_TERMINAL_REASON } from '../../lib/runtime/agents/opencode/terminal-answer';
import { expect, test } from './support/fixtures';
import { askQuestions, choice, DB_QUESTION, dbQuestion, openCodeSays, startConversation } from './support/scenarios';
import { waitForScreen } from './support/tui';
import { forAgentWork } from '../support/agent-wait';

// A plain `opencode` TUI (no port) with the plugin `askaway opencode install` wrote: its question tool on
// the real card in Chromium. One TUI for the file; each test is a new session with its own scripted model.
test.describe.configure({ mode: 'serial' });

test('[R18.20][R18.23] a question answered on the real card: the model reads the answer', async ({
  opencode: _opencode,
  sharedTui,
  model,
  remote,
  phone,
}) => {
  const marker = 'OC-single';
  const { record } = await startConversation(
    { sharedTui, model, remote },
    { marker, turns: [askQuestions('call_single', [dbQuestion])] },
    'call_single',
  );
  expect(record).toMatchObject({
    kind: 'question',
    inputRules: 'agent',
    toolName: 'question',
    agent: { kind: 'opencode', version: '1.18.33' },
  });

  const card = await phone.openCard(record.requestId);
  await card.choose(0, 'Postgres');
  await card.submit();
  await expect(phone.page.getByTestId('card.receipt-applied')).toContainText('Received by the agent');
  await expect
    .poll(() => model.toolResult('call_single')?.content, { timeout: forAgentWork() })
    .toBe(openCodeSays.answered(`"${DB_QUESTION}"="Postgres"`));
});

test('[R18.23] multi-select and a typed answer on the real card: several labels apart, the typed text as typed', async ({
  opencode: _opencode,
  sharedTui,
  model,
  remote,
  phone,
}) => {
  const marker = 'OC-multi';
  const areas = choice('Which areas should we cover?', 'Areas', ['Auth', 'Billing', 'Search'], true);
  const { record } = await startConversation(
    { sharedTui, model, remote },
    { marker, turns: [askQuestions('call_multi', [areas, dbQuestion])], prompt: 'plan the work' },
    'call_multi',
  );

  const card = await phone.openCard(record.requestId);
  await card.choose(0, 'Auth');
  await card.choose(0, 'Billing');
  await card.other(1, 'MariaDB, typed by me');
  await card.submit();
  await expect
    .poll(() => model.toolResult('call_multi')?.content, { timeout: forAgentWork() })
    .toBe(openCodeSays.answered(`"${areas.question}"="Auth, Billing", "${DB_QUESTION}"="MariaDB, typed by me"`));
});

test('[R18.23] skipped on the card: OpenCode reads "Unanswered" and carries on', async ({
  opencode: _opencode,
  sharedTui,
  model,
  remote,
  phone,
}) => {
  const marker = 'OC-skip';
  const { record } = await startConversation(
    { sharedTui, model, remote },
    { marker, turns: [askQuestions('call_skip', [dbQuestion])] },
    'call_skip',
  );

  const card = await phone.openCard(record.requestId);
  await card.skipAll();
  await expect
    .poll(() => model.toolResult('call_skip')?.content, { timeout: forAgentWork() })
    .toBe(openCodeSays.answered(`"${DB_QUESTION}"="Unanswered"`));
  // The loop went on: the model was called again in the same turn.
  await expect.poll(() => model.calls(marker), { timeout: forAgentWork() }).toBe(2);
});

test('[R18.23] declined on the card: the card said OpenCode stops the turn, and it did', async ({
  opencode: _opencode,
  sharedTui,
  model,
  remote,
  phone,
}) => {
  const marker = 'OC-decline';
  const { tmux, lab, record } = await startConversation(
    { sharedTui, model, remote },
    { marker, turns: [askQuestions('call_decline', [dbQuestion])] },
    'call_decline',
  );
  expect(record.context?.declineNote).toBe(QUESTION_DECLINE_NOTE);

  const card = await phone.openCard(record.requestId);
  await phone.page.getByTestId('card.menu').click();
  await phone.page.getByTestId('card.decline').click();
  // The card says what declining does here before it is sent.
  await expect(phone.page.getByTestId('card.decline-dialog')).toContainText(QUESTION_DECLINE_NOTE);
  await phone.page.getByTestId('card.decline-dialog-reason').fill('not now');
  await phone.page.getByTestId('card.decline-dialog-confirm').click();
  await expect(card.receipt).toBeVisible();
  await expect(phone.page.getByTestId('card.receipt-applied')).toContainText('Received by the agent');
  await expect
    .poll(() => lab.bridgeLog())
    .toContain(`${record.requestId.slice('opencode-'.length)} declined on the phone`);
  // No model call followed; the next message the person sends carries the dismissal to the model.
  // The assistant message closed (its footer shows) with no further model call.
  await waitForScreen(tmux, /▣\s+Build · Scripted/);
  expect(model.calls(marker)).toBe(1);
  await tmux.keys(['go on'], { literal: true });
  await tmux.keys(['Enter']);
  await expect
    .poll(() => model.toolResult('call_decline')?.content, { timeout: forAgentWork() })
    .toBe(openCodeSays.dismissed);
});

test('[R18.25] answered in the TUI first: the card leaves as answered in the terminal, a late phone answer gets that receipt', async ({
  opencode: _opencode,
  sharedTui,
  model,
  remote,
  phone,
}) => {
  const marker = 'OC-terminal';
  const { tmux, record } = await startConversation(
    { sharedTui, model, remote },
    { marker, turns: [askQuestions('call_terminal', [dbQuestion])] },
    'call_terminal',
  );
  const card = await phone.openCard(record.requestId);

  await waitForScreen(tmux, /Type your own answer/);
  await tmux.keys(['Enter']);
  await expect
    .poll(() => model.toolResult('call_terminal')?.content, { timeout: forAgentWork() })
    .toBe(openCodeSays.answered(`"${DB_QUESTION}"="Postgres"`));
  await expect.poll(() => remote.withdrawn(record.requestId)?.reason).toBe(ANSWERED_IN_TERMINAL_REASON);
  // The card the person holds says the terminal's answer won, and so does History (R18.6).
  await expect(card.receipt).toHaveAttribute('data-state', 'terminal');
  await expect(card.receipt).toContainText(ANSWERED_IN_TERMINAL_REASON);
  expect(
    await remote.respond(record.requestId, { action: 'accept', content: { answers: { [DB_QUESTION]: 'SQLite' } } }),
  ).toMatchObject({
    ok: false,
    error: { code: 'withdrawn' },
  });
});

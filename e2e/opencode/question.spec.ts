import { expect, test } from './support/fixtures';
import { askQuestions, DB_QUESTION, dbQuestion, onPhone, openCodeSays } from './support/scenarios';
import { newSession } from './support/tui';

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
  model.add({ marker, turns: [askQuestions('call_single', [dbQuestion])] });
  const { tmux } = await sharedTui();
  await newSession(tmux, `${marker}: set up the service`);
  const record = await onPhone(remote, 'call_single');
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
    .poll(() => model.toolResult('call_single')?.content)
    .toBe(openCodeSays.answered(`"${DB_QUESTION}"="Postgres"`));
});

import { SECRET_ANSWER_MASK } from '../../lib/contracts';
import { ANSWERED_IN_TERMINAL_REASON } from '../../lib/runtime/agents/codex/terminal-answer';
import { expect, test } from './support/fixtures';
import { ask, callId, cardFor, colorQuestion, modelRead, sizeQuestion, tokenQuestion } from './support/scenarios';

// Codex's request_user_input (Plan mode) through the bridge: the real PWA answers it, or the TUI does first.

test('[R18.11][R18.10] a question answered on the phone: an option, "Other" text with a note, a secret; the model reads them in Codex’s format', async ({
  session,
  phone,
  remote,
}) => {
  const marker = 'E2E-ask';
  const codex = await session({
    conversations: [
      { marker, turns: [ask([colorQuestion, sizeQuestion, tokenQuestion]), [{ type: 'text', text: 'thanks' }]] },
    ],
  });
  const bridge = await codex.bridge();
  const tui = await codex.tui();
  await tui.ready({ plan: true });
  await tui.submit(`${marker}: set up the widget`);
  const record = await cardFor(remote, (candidate) => candidate.toolUseId === callId(marker, 0, 1));
  expect(record).toMatchObject({
    kind: 'question',
    inputRules: 'agent',
    agent: { kind: 'codex', name: 'Codex', version: '0.171.0' },
    context: { agentMessage: 'I need a few choices from you.', cwd: codex.home.workDir },
  });
  await bridge.logged(/question 0 of thread .* → the phone/);

  const card = await phone.openCard(record.requestId);
  await card.choose(0, 'Blue');
  await card.other(1, 'Extra large');
  await card.note(1, 'for the lobby');
  await card.other(2, 's3cret-token');
  await card.submit();
  await expect(card.receipt).toBeVisible();

  const read = await modelRead(codex.model, callId(marker, 0, 1));
  expect(JSON.parse(read.text)).toEqual({
    answers: {
      color: { answers: ['Blue'] },
      size: { answers: ['None of the above', 'user_note: Extra large\nfor the lobby'] },
      token: { answers: ['None of the above', 'user_note: s3cret-token'] },
    },
  });
  // Codex reads the secret; no phone does (R18.5).
  await expect(phone.page.getByText('s3cret-token')).toHaveCount(0);
  const resolved = await remote.respond(record.requestId, { action: 'accept', content: { answers: {} } });
  expect(resolved).toMatchObject({ ok: true, status: 'already-resolved' });
  expect(JSON.stringify(resolved)).toContain(SECRET_ANSWER_MASK);
  expect(JSON.stringify(resolved)).not.toContain('s3cret-token');
  await tui.waitFor(/thanks/);
});

test('[R18.13] the same question answered in the TUI first: the card leaves, a late phone answer is refused with a receipt', async ({
  session,
  phone,
  remote,
}) => {
  const marker = 'E2E-tui-first';
  const codex = await session({
    conversations: [{ marker, turns: [ask([colorQuestion]), [{ type: 'text', text: 'noted' }]] }],
  });
  await codex.bridge();
  const tui = await codex.tui();
  await tui.ready({ plan: true });
  await tui.submit(`${marker}: pick a color`);
  const record = await cardFor(remote, (candidate) => candidate.toolUseId === callId(marker, 0, 1));
  const card = await phone.openCard(record.requestId);
  await expect(card.option(0, 'Blue')).toBeVisible();

  // In the terminal: "2" picks Blue and, on the last question, submits.
  await tui.pressOn(/Which color should the widget be\?/, '2');
  const read = await modelRead(codex.model, callId(marker, 0, 1));
  expect(JSON.parse(read.text)).toEqual({ answers: { color: { answers: ['Blue'] } } });

  // The card the person holds says the terminal's answer won, and so does History (R18.6).
  await expect(card.receipt).toHaveAttribute('data-state', 'terminal');
  await expect(card.receipt).toContainText(ANSWERED_IN_TERMINAL_REASON);
  expect(await remote.respond(record.requestId, { action: 'accept', content: { answers: {} } })).toMatchObject({
    ok: false,
    error: { code: 'withdrawn' },
  });
  expect(remote.withdrawn(record.requestId)).toEqual({ reason: ANSWERED_IN_TERMINAL_REASON, terminalAnswer: {} });
  await tui.waitFor(/noted/);
});

test('[R18.11] a Default-mode question Codex will not wait for says so on the card, and is answered from the phone', async ({
  session,
  remote,
  phone,
}) => {
  const marker = 'E2E-default-mode';
  const codex = await session({
    // Under development in 0.171: Default-mode questions, which Codex resolves unanswered after 2 minutes.
    tables: ['[features]', 'default_mode_request_user_input = true'],
    conversations: [
      { marker, turns: [ask([sizeQuestion], 'Quick one.'), [{ type: 'text', text: `finished ${marker}` }]] },
    ],
  });
  await codex.bridge();
  const tui = await codex.tui();
  await tui.ready();
  await tui.submit(`${marker}: pick a size`);
  const record = await cardFor(remote, (candidate) => candidate.toolUseId === callId(marker, 0, 1));
  expect(record.context?.agentMessage).toBe(
    'Quick one.\n\nCodex is not waiting for this answer: about 2 minutes after it asked, it goes on without one.',
  );
  // The card counts down to Codex's own deadline, whatever Askaway's auto-resolution says.
  const deadline = Date.parse(record.context?.agentDeadlineAt ?? '');
  expect(deadline - Date.parse(record.createdAt)).toBeGreaterThan(110_000);
  expect(deadline - Date.parse(record.createdAt)).toBeLessThanOrEqual(120_000);
  await phone.openCard(record.requestId);
  await expect(phone.page.getByTestId('card.agent-deadline')).toHaveText(
    /^Codex goes on without your answer in 1:[0-5]\d$/,
  );
  await expect(phone.page.getByTestId('card.auto-off')).toHaveCount(0);
  await remote.respond(record.requestId, {
    action: 'accept',
    content: { answers: { [sizeQuestion.question]: 'Small' } },
  });
  expect(JSON.parse((await modelRead(codex.model, callId(marker, 0, 1))).text)).toEqual({
    answers: { size: { answers: ['Small'] } },
  });
  await tui.waitFor(new RegExp(`finished ${marker}`));
});

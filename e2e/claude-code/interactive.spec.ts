import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from './support/fixtures';
import {
  confirm,
  moveTo,
  passFirstRunDialogs,
  startInteractive,
  submitPrompt,
  waitForDialog,
  waitForScreen,
} from './support/interactive';
import { type ScriptedTurn } from './support/model-server';
import { startRecordingServer } from '../../lib/host/push/test-helpers';
import { ownerCli } from '../support/host';
import {
  askUserQuestion,
  CACHE_QUESTION,
  cacheQuestion,
  claudeCodeSays,
  DB_QUESTION,
  dbQuestion,
  planFileIn,
} from './support/scenarios';
import { forAgentWork } from '../support/agent-wait';

// Claude Code's interactive UI (what people use), under tmux: the first-run dialogs are answered with
// keys, the screen is read with capture-pane, the phone is a socket.io client.

test('[R11.2] interactive UI: a plan approved on the phone closes the terminal dialog and the model starts coding', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-tui-plan';
  const write: ScriptedTurn = (request) => [
    {
      type: 'tool_use',
      id: 'toolu_tui_write',
      name: 'Write',
      input: { file_path: planFileIn(request), content: '# Plan\n\n1. Ship the TUI plan' },
    },
  ];
  const ws = await workspace([
    { marker, turns: [write, [{ type: 'tool_use', id: 'toolu_tui_plan', name: 'ExitPlanMode', input: {} }]] },
  ]);
  const tmux = await startInteractive(claude, ws, ['--permission-mode', 'plan']);
  await passFirstRunDialogs(tmux);
  await submitPrompt(tmux, `${marker}: plan it`);

  const record = await remote.next(
    (pending) => JSON.stringify(pending.input).includes('Ship the TUI plan'),
    forAgentWork(),
  );
  expect(record.toolName).toBe('ExitPlanMode');
  // The terminal shows its own approval dialog meanwhile: the hook and the dialog race.
  await waitForScreen(tmux, /Would you like to proceed\?/);
  await remote.respond(record.requestId, { action: 'accept' });

  // The model's next turn ("done") on screen: the dialog was settled by the phone (the failure shows the screen).
  const screen = await waitForScreen(tmux, /● done/);
  expect(screen).not.toMatch(/Would you like to proceed\?/);
  expect(ws.model.toolResult('toolu_tui_plan')?.content.startsWith(claudeCodeSays.planApproved)).toBe(true);
});

test('[R11.8][R11.10] interactive UI: the question is in the terminal and on the real card at once; the card’s answer closes the dialog', async ({
  claude,
  phone,
  remote,
  workspace,
}) => {
  const marker = 'E2E-tui-both';
  const ws = await workspace([{ marker, turns: [askUserQuestion('toolu_tui_both', { questions: [dbQuestion] })] }]);
  const tmux = await startInteractive(claude, ws);
  await passFirstRunDialogs(tmux);
  await submitPrompt(tmux, `${marker}: set up the service`);

  const record = await remote.next(
    (pending) =>
      pending.sessionId !== undefined &&
      pending.toolName === 'AskUserQuestion' &&
      JSON.stringify(pending.context).includes(ws.project.dir),
    forAgentWork(),
  );
  // Both at once: Claude Code's own dialog is up while the card waits.
  await waitForDialog(tmux, /❯\s1\. Postgres/);
  const card = await phone.openCard(record.requestId);
  await expect(phone.page.getByTestId('card.open-in-terminal')).toContainText('Also open in the terminal on');
  await card.choose(0, 'SQLite');
  await card.submit();
  await expect(card.receipt).toBeVisible();

  // The dialog closed ("Allowed by PermissionRequest hook") and the model read the card's answer.
  await waitForScreen(tmux, /Allowed by PermissionRequest hook/);
  await expect
    .poll(() => ws.model.toolResult('toolu_tui_both')?.content, { timeout: forAgentWork() })
    .toBe(claudeCodeSays.answered(`"${DB_QUESTION}"="SQLite"`));
});

test('[R11.9][R18.6] interactive UI: answered in the terminal first, the open card shows it within a second and History says so', async ({
  claude,
  phone,
  remote,
  workspace,
}) => {
  const marker = 'E2E-tui-first';
  const ws = await workspace([{ marker, turns: [askUserQuestion('toolu_tui_first', { questions: [dbQuestion] })] }]);
  const tmux = await startInteractive(claude, ws);
  await passFirstRunDialogs(tmux);
  await submitPrompt(tmux, `${marker}: set up the service`);

  const record = await remote.next(
    (pending) => pending.toolName === 'AskUserQuestion' && JSON.stringify(pending.context).includes(ws.project.dir),
    forAgentWork(),
  );
  const card = await phone.openCard(record.requestId);
  await card.choose(0, 'SQLite');
  await waitForDialog(tmux, /❯\s1\. Postgres/);
  await confirm(tmux, /❯\s1\. Postgres/);
  const answeredAt = Date.now();

  // The card the person holds turns into the terminal's answer, their own choice kept readable.
  const receipt = phone.page.getByTestId('card.receipt');
  await expect(receipt).toHaveAttribute('data-state', 'terminal', { timeout: 5_000 });
  expect(Date.now() - answeredAt).toBeLessThan(2_500);
  await expect(phone.page.getByTestId('card.receipt-status')).toContainText('Answered in the terminal');
  await expect(receipt).toContainText('Postgres');
  await expect
    .poll(() => ws.model.toolResult('toolu_tui_first')?.content, { timeout: forAgentWork() })
    .toBe(claudeCodeSays.answered(`"${DB_QUESTION}"="Postgres"`));

  await phone.goto('/history');
  const entry = phone.page.locator(`[data-testid="history.item"][data-request-id="${record.requestId}"]`);
  await expect(entry.getByTestId('history.summary')).toHaveText('Answered in the terminal');
  await expect(entry).toContainText('Postgres');
});

// In the interactive UI Claude Code 2.1.332 does not stop a PermissionRequest hook when the person answers
// the plan dialog in the terminal (print mode does stop it), and the payload names no tool_use_id. The hook
// follows the transcript instead: the tool_result for this ExitPlanMode call tells it the plan was decided.
test('[R11.7] interactive UI: a plan approved in the terminal first withdraws the card from the phone', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-tui-plan-terminal';
  const write: ScriptedTurn = (request) => [
    {
      type: 'tool_use',
      id: 'toolu_tui_write2',
      name: 'Write',
      input: { file_path: planFileIn(request), content: '# Plan\n\n1. Approve it in the terminal' },
    },
  ];
  const ws = await workspace([
    { marker, turns: [write, [{ type: 'tool_use', id: 'toolu_tui_plan2', name: 'ExitPlanMode', input: {} }]] },
  ]);
  const tmux = await startInteractive(claude, ws, ['--permission-mode', 'plan']);
  await passFirstRunDialogs(tmux);
  await submitPrompt(tmux, `${marker}: plan it`);

  const record = await remote.next(
    (pending) => JSON.stringify(pending.input).includes('Approve it in the terminal'),
    forAgentWork(),
  );
  await waitForDialog(tmux, /❯\s1\. Yes, and use auto mode/);
  await moveTo(tmux, /❯\s2\. Yes, manually approve edits/, 'Down');
  await confirm(tmux, /❯\s2\. Yes, manually approve edits/);
  await waitForScreen(tmux, /● done/);
  expect(ws.model.toolResult('toolu_tui_plan2')?.content.startsWith(claudeCodeSays.planApproved)).toBe(true);

  // The terminal decided: the card leaves the phone, saying so (not at the hook's 540 s timeout).
  await expect
    .poll(() => remote.withdrawn(record.requestId), { timeout: forAgentWork() })
    .toMatchObject({
      reason: 'Answered in the terminal',
      terminalAnswer: { response: { action: 'accept' } },
    });
  expect(remote.pending().some((pending) => pending.requestId === record.requestId)).toBe(false);
});

test('[R11.7] interactive UI: a plan rejected in the terminal withdraws its card; the next plan is answered on the phone', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-tui-plan-twice';
  const write =
    (id: string, step: string): ScriptedTurn =>
    (request) => [
      {
        type: 'tool_use',
        id,
        name: 'Write',
        input: { file_path: planFileIn(request), content: `# Plan\n\n1. ${step}` },
      },
    ];
  const exitPlanMode = (id: string): ScriptedTurn => [{ type: 'tool_use', id, name: 'ExitPlanMode', input: {} }];
  const ws = await workspace([
    {
      marker,
      turns: [
        write('toolu_tui_w3', 'Do it in one go'),
        exitPlanMode('toolu_tui_plan3'),
        write('toolu_tui_w4', 'Do it in two steps'),
        exitPlanMode('toolu_tui_plan4'),
      ],
    },
  ]);
  const tmux = await startInteractive(claude, ws, ['--permission-mode', 'plan']);
  await passFirstRunDialogs(tmux);
  await submitPrompt(tmux, `${marker}: plan it`);

  const first = await remote.next(
    (pending) => JSON.stringify(pending.input).includes('Do it in one go'),
    forAgentWork(),
  );
  // In the terminal: "Tell Claude what to change", with feedback.
  await waitForDialog(tmux, /❯\s1\. Yes, and use auto mode/);
  await moveTo(tmux, /❯\s3\. Tell Claude what to change/, 'Down');
  await tmux.keys(['split it in two'], { literal: true });
  await waitForScreen(tmux, /❯\s3\. split it in two/);
  await confirm(tmux, /❯\s3\. split it in two/);

  await expect
    .poll(() => remote.withdrawn(first.requestId), { timeout: forAgentWork() })
    .toMatchObject({
      reason: 'Answered in the terminal',
      terminalAnswer: { response: { action: 'decline' } },
    });
  // The transcript has the answer before Claude Code sends the model its next request.
  await expect
    .poll(() => ws.model.toolResult('toolu_tui_plan3'), { timeout: forAgentWork() })
    .toMatchObject({
      isError: true,
      content: expect.stringContaining('the user said:\nsplit it in two'),
    });

  // The model's second plan: the first one's answer in the transcript does not withdraw this card.
  const second = await remote.next(
    (pending) => JSON.stringify(pending.input).includes('Do it in two steps'),
    forAgentWork(),
  );
  await waitForScreen(tmux, /Do it in two steps/);
  await remote.respond(second.requestId, { action: 'accept' });
  await waitForScreen(tmux, /● done/);
  expect(ws.model.toolResult('toolu_tui_plan4')?.content.startsWith(claudeCodeSays.planApproved)).toBe(true);
  expect(remote.withdrawn(second.requestId)).toBeUndefined();
});

test('[R11.7] interactive UI, --all-tools: a Write allowed in the terminal first withdraws its card', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-tui-write-terminal';
  let target = '';
  const write: ScriptedTurn = () => [
    { type: 'tool_use', id: 'toolu_tui_write5', name: 'Write', input: { file_path: target, content: 'db=sqlite\n' } },
  ];
  const ws = await workspace([{ marker, turns: [write] }], { allTools: true });
  target = path.join(ws.project.dir, 'db.conf');
  const tmux = await startInteractive(claude, ws, ['--permission-mode', 'default']);
  await passFirstRunDialogs(tmux);
  await submitPrompt(tmux, `${marker}: write the config`);

  const record = await remote.next(
    (pending) => pending.toolName === 'Write' && pending.toolUseId === undefined,
    forAgentWork(),
  );
  // An Enter sent as the dialog appears would be refused (the Write never approved): wait until it takes keys.
  await waitForDialog(tmux, /Do you want to create db\.conf\?[\s\S]*❯\s1\. Yes/);
  await confirm(tmux, /Do you want to create db\.conf\?/);

  await expect
    .poll(() => remote.withdrawn(record.requestId), { timeout: forAgentWork() })
    .toMatchObject({
      reason: 'Answered in the terminal',
      terminalAnswer: { response: { action: 'accept' } },
    });
  // The transcript has the result (which withdrew the card) before the model's next request carries it.
  await expect
    .poll(() => ws.model.toolResult('toolu_tui_write5'), { timeout: forAgentWork() })
    .toMatchObject({
      isError: false,
    });
  expect(await readFile(target, 'utf8')).toBe('db=sqlite\n');
});

// ntfy stands in for the phone's notifications: its requests are plain text (Web Push is the same queue, R14.2).
test('[R14.7][R11.9] "Notify my phone" after 30 s: a question answered in the terminal within 30 s sends nothing; the next one, still waiting, is sent then', async ({
  claude,
  host,
  remote,
  workspace,
}) => {
  test.setTimeout(100_000);
  const ntfy = await startRecordingServer();
  const marker = 'E2E-tui-quiet';
  const ws = await workspace([
    {
      marker,
      turns: [
        askUserQuestion('toolu_tui_quiet', { questions: [dbQuestion] }),
        askUserQuestion('toolu_tui_waits', { questions: [cacheQuestion] }),
      ],
    },
  ]);
  expect(await remote.updatePreferences({ notifyDelayMs: 30_000 })).toMatchObject({ ok: true });
  // A topic on this machine is the owner's to set, on the host (R12.15).
  ownerCli(host, ['ntfy', 'set', `${ntfy.url}/askaway-e2e`]);
  try {
    const tmux = await startInteractive(claude, ws);
    await passFirstRunDialogs(tmux);
    await submitPrompt(tmux, `${marker}: set up the service`);
    const asked = (question: string) => (pending: { input: unknown; context?: unknown }) =>
      JSON.stringify(pending.input).includes(question) && JSON.stringify(pending.context).includes(ws.project.dir);

    const first = await remote.next(asked(DB_QUESTION), forAgentWork());
    await waitForDialog(tmux, /❯\s1\. Postgres/);
    await confirm(tmux, /❯\s1\. Postgres/);
    await expect.poll(() => remote.withdrawn(first.requestId), { timeout: forAgentWork() }).toBeDefined();

    const second = await remote.next(asked(CACHE_QUESTION), forAgentWork());
    const secondAskedAt = Date.now();
    await waitForDialog(tmux, /❯\s1\. Redis/);
    // The second question waits: it is sent once its 30 s are up, and the first one never is.
    await expect.poll(() => ntfy.requests.length, { timeout: 45_000, intervals: [500] }).toBe(1);
    expect(Date.now() - secondAskedAt).toBeGreaterThan(28_000);
    const sent = ntfy.requests[0]?.body.toString('utf8') ?? '';
    expect(sent).toContain(CACHE_QUESTION);
    expect(sent).not.toContain(DB_QUESTION);

    await remote.respond(second.requestId, { action: 'accept', content: { answers: { [CACHE_QUESTION]: 'Redis' } } });
    await expect
      .poll(() => ws.model.toolResult('toolu_tui_waits')?.content, { timeout: forAgentWork() })
      .toBe(claudeCodeSays.answered(`"${CACHE_QUESTION}"="Redis"`));
    expect(ntfy.requests).toHaveLength(1);
  } finally {
    // The host is the worker's: leave it as the other tests expect it.
    await remote.updatePreferences({ notifyDelayMs: 0 });
    ownerCli(host, ['ntfy', 'clear']);
    await ntfy.close();
  }
});

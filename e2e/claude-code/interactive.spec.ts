import { expect, test } from './support/fixtures';
import { passFirstRunDialogs, startInteractive, submitPrompt, waitForScreen } from './support/interactive';
import { type ScriptedTurn } from './support/model-server';
import { askUserQuestion, claudeCodeSays, DB_QUESTION, dbQuestion, planFileIn } from './support/scenarios';

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

  const record = await remote.next((pending) => JSON.stringify(pending.input).includes('Ship the TUI plan'), 30_000);
  expect(record.toolName).toBe('ExitPlanMode');
  // The terminal shows its own approval dialog meanwhile: the hook and the dialog race.
  await waitForScreen(tmux, /Would you like to proceed\?/);
  await remote.respond(record.requestId, { action: 'accept' });

  // The model's next turn ("done") on screen: the dialog was settled by the phone (the failure shows the screen).
  const screen = await waitForScreen(tmux, /● done/);
  expect(screen).not.toMatch(/Would you like to proceed\?/);
  expect(ws.model.toolResult('toolu_tui_plan')?.content.startsWith(claudeCodeSays.planApproved)).toBe(true);
});

test('[R11.2] interactive UI: the hook timeout withdraws the card and the terminal dialog takes the answer', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-tui-timeout';
  const ws = await workspace([{ marker, turns: [askUserQuestion('toolu_tui_timeout', { questions: [dbQuestion] })] }], {
    hookTimeout: '3s',
  });
  const tmux = await startInteractive(claude, ws);
  await passFirstRunDialogs(tmux);
  await submitPrompt(tmux, `${marker}: set up the service`);

  const record = await remote.next((pending) => pending.toolUseId === 'toolu_tui_timeout', 30_000);
  // Nobody answers on the phone: the hook gives up, withdraws the card, and Claude Code asks in the terminal.
  await expect.poll(() => remote.pending().some((pending) => pending.requestId === record.requestId)).toBe(false);
  await waitForScreen(tmux, /❯\s1\. Postgres/);
  await tmux.keys(['Down']);
  await waitForScreen(tmux, /❯\s2\. SQLite/);
  await tmux.keys(['Enter']);

  await expect
    .poll(() => ws.model.toolResult('toolu_tui_timeout')?.content, { timeout: 20_000 })
    .toBe(claudeCodeSays.answered(`"${DB_QUESTION}"="SQLite"`));
});

// Known gap, reported: in the interactive UI Claude Code 2.1.332 does not stop a PermissionRequest hook
// when the person answers the plan dialog in the terminal (print mode does stop it). The hook keeps
// waiting and the phone keeps an already-decided plan card until the hook's own timeout (540 s), which
// then says the plan "went back to the terminal". The payload names no tool_use_id; the transcript does
// record the decision (a tool_result for ExitPlanMode). Marked as failing until the hook notices it.
test('[R11.2] interactive UI: a plan approved in the terminal first withdraws the card from the phone', async ({
  claude,
  remote,
  workspace,
}) => {
  test.fail(true, 'Claude Code leaves the PermissionRequest hook running after a terminal answer');
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
    30_000,
  );
  await waitForScreen(tmux, /❯\s1\. Yes, and use auto mode/);
  await tmux.keys(['Down']);
  await waitForScreen(tmux, /❯\s2\. Yes, manually approve edits/);
  await tmux.keys(['Enter']);
  await waitForScreen(tmux, /● done/);
  expect(ws.model.toolResult('toolu_tui_plan2')?.content.startsWith(claudeCodeSays.planApproved)).toBe(true);

  // The terminal decided: the card must not stay answerable on the phone.
  await expect
    .poll(() => remote.pending().some((pending) => pending.requestId === record.requestId), { timeout: 10_000 })
    .toBe(false);
});

import { expect, test } from './support/fixtures';
import { type ScriptedConversation, type ScriptedTurn } from './support/model-server';
import { claudeCodeSays, finish, onPhone, planFileIn, runSdk } from './support/scenarios';
import { SDK_HOST_DENIAL } from './support/sdk-session';

// Plan approval with the real `claude --permission-mode plan` in SDK print mode. There Claude Code asks
// its SDK host (`can_use_tool`) at the same moment the PermissionRequest hook starts: the two race, and
// the first answer wins. The SDK host here keeps quiet for a while so that only the phone can settle the
// call in time; a prompt Claude Code cancels (control_cancel_request) is the sign the hook won.
const HOST_QUIET_MS = 15_000;
const PLAN = '# Plan\n\n1. Add the migration\n2. Backfill the column';

/** The model writes its plan to the file plan mode names, then calls ExitPlanMode (as 2.1.332 expects). */
function planFromFile(marker: string, toolUseId: string): ScriptedConversation {
  const write: ScriptedTurn = (request) => [
    {
      type: 'tool_use',
      id: `${toolUseId}_write`,
      name: 'Write',
      input: { file_path: planFileIn(request), content: PLAN },
    },
  ];
  return { marker, turns: [write, [{ type: 'tool_use', id: toolUseId, name: 'ExitPlanMode', input: {} }]] };
}

test('[R11.2] a plan approved on the phone lets Claude Code start coding at once', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-plan-approve';
  const ws = await workspace([planFromFile(marker, 'toolu_plan_ok')]);
  const session = runSdk(claude, ws, `${marker}: add a column`, {
    args: ['--permission-mode', 'plan'],
    answerAfterMs: HOST_QUIET_MS,
  });
  const record = await onPhone(remote, session);
  expect(record).toMatchObject({ kind: 'plan-approval', toolName: 'ExitPlanMode' });
  expect(JSON.stringify(record.input)).toContain('Backfill the column');
  await remote.respond(record.requestId, { action: 'accept' });

  const result = await finish(session, ws, 'toolu_plan_ok');
  expect(result.isError).toBe(false);
  expect(result.content.startsWith(claudeCodeSays.planApproved)).toBe(true);
  expect(result.content).toContain('2. Backfill the column');
  // The race: Claude Code did ask its SDK host, and withdrew that prompt when the hook answered.
  expect(session.canUseTool).toHaveLength(1);
  expect(session.canUseTool[0]).toMatchObject({ toolName: 'ExitPlanMode', cancelled: true, answered: false });
});

test('[R3.7] a plan rejected on the phone gives the model the reason', async ({ claude, remote, workspace }) => {
  const marker = 'E2E-plan-reject';
  const ws = await workspace([planFromFile(marker, 'toolu_plan_no')]);
  const session = runSdk(claude, ws, `${marker}: add a column`, {
    args: ['--permission-mode', 'plan'],
    answerAfterMs: HOST_QUIET_MS,
  });
  const record = await onPhone(remote, session);
  await remote.respond(record.requestId, { action: 'decline', message: 'use a feature flag first' });

  const result = await finish(session, ws, 'toolu_plan_no');
  expect(result).toMatchObject({ isError: true, content: 'The user rejected the plan: use a feature flag first' });
  expect(session.canUseTool[0]).toMatchObject({ cancelled: true, answered: false });
});

test('[R11.2] ExitPlanMode with no plan file (tool_input {}) still reaches the phone and can be approved', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-plan-missing';
  // The model passes its plan inline; 2.1.332 reads plans from the plan file only, so the hook gets {}.
  const ws = await workspace([
    { marker, turns: [[{ type: 'tool_use', id: 'toolu_plan_empty', name: 'ExitPlanMode', input: { plan: PLAN } }]] },
  ]);
  const session = runSdk(claude, ws, `${marker}: add a column`, {
    args: ['--permission-mode', 'plan'],
    answerAfterMs: HOST_QUIET_MS,
  });
  const record = await onPhone(remote, session);
  expect(record).toMatchObject({ kind: 'plan-approval', toolName: 'ExitPlanMode' });
  await remote.respond(record.requestId, { action: 'accept' });

  const result = await finish(session, ws, 'toolu_plan_empty');
  expect(result).toMatchObject({ isError: false, content: claudeCodeSays.emptyPlanApproved });
  expect(session.canUseTool[0]).toMatchObject({ input: {}, cancelled: true, answered: false });
});

test('[R11.2] print-mode race: an SDK host that answers first wins, and the phone card is withdrawn', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-plan-race';
  const ws = await workspace([planFromFile(marker, 'toolu_plan_race')]);
  const session = runSdk(claude, ws, `${marker}: add a column`, {
    args: ['--permission-mode', 'plan'],
    answerAfterMs: 'never',
  });
  // Both are in flight: the plan is on the phone and Claude Code has asked its SDK host.
  const record = await onPhone(remote, session);
  await expect.poll(() => session.canUseTool.length).toBe(1);
  const [prompt] = session.canUseTool;
  if (!prompt) throw new Error('unreachable');
  session.answer(prompt, { behavior: 'deny', message: SDK_HOST_DENIAL });

  await session.result;
  expect(await session.close()).toEqual({ code: 0, signal: null });
  expect(ws.model.toolResult('toolu_plan_race')).toMatchObject({
    isError: true,
    content: expect.stringContaining(SDK_HOST_DENIAL),
  });
  // Claude Code stops the hook it no longer needs; the hook withdraws its card from the phone.
  await expect.poll(() => remote.pending().some((pending) => pending.requestId === record.requestId)).toBe(false);
});

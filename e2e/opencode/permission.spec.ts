import { type ApprovalInput } from '../../lib/contracts';
import { ALWAYS_DETAIL, PERMISSION_DENY_DETAIL } from '../../lib/runtime/agents/opencode/to-interaction';
import { OPENCODE_CLOSED_REASON } from '../../lib/runtime/agents/opencode/terminal-answer';
import { expect, test } from './support/fixtures';
import { type ScriptedBlock } from './support/model-server';
import { askQuestions, bash, dbQuestion, onPhone, openCodeSays, startConversation } from './support/scenarios';
import { TUI_START_TIMEOUT_MS } from './support/tui';
import { forAgentWork } from '../support/agent-wait';

// Permission prompts (`"permission": {"bash": "ask"}`) of a plain `opencode` TUI, answered by a phone without a
// browser until the approval card lands; then OpenCode closing with a card open. One TUI for the file.
test.describe.configure({ mode: 'serial' });

test('[R18.24] a bash permission allowed once from the phone, then one denied with a reason the model reads', async ({
  opencode: _opencode,
  sharedTui,
  model,
  remote,
}) => {
  const marker = 'OC-perm';
  const { lab, record: once } = await startConversation(
    { sharedTui, model, remote },
    { marker, turns: [bash('call_once', 'echo hi-once'), bash('call_deny', 'rm -rf build')], prompt: 'tidy up' },
    'call_once',
  );
  expect(once).toMatchObject({ kind: 'approval', toolName: 'bash', agent: { kind: 'opencode' } });
  expect(once.input as ApprovalInput).toEqual({
    subject: 'command',
    command: 'echo hi-once',
    cwd: lab.project,
    scope: ['echo hi-once'],
    choices: [
      { id: 'once', label: 'Allow once', effect: 'allow' },
      { id: 'always', label: 'Always allow', effect: 'allow-always', detail: `${ALWAYS_DETAIL}echo *` },
      { id: 'reject', label: 'Deny', effect: 'deny', detail: PERMISSION_DENY_DETAIL },
    ],
  });
  expect(await remote.respond(once.requestId, { action: 'accept', content: { choice: 'once' } })).toMatchObject({
    ok: true,
  });
  await expect.poll(() => model.toolResult('call_once')?.content, { timeout: forAgentWork() }).toBe('hi-once\n');

  const deny = await onPhone(remote, 'call_deny');
  expect(deny.input).toMatchObject({
    command: 'rm -rf build',
    choices: expect.arrayContaining([expect.objectContaining({ id: 'always', detail: `${ALWAYS_DETAIL}rm *` })]),
  });
  expect(await remote.respond(deny.requestId, { action: 'decline', message: 'Keep the build folder' })).toMatchObject({
    ok: true,
  });
  await expect
    .poll(() => model.toolResult('call_deny')?.content, { timeout: forAgentWork() })
    .toBe(openCodeSays.rejectedWith('Keep the build folder'));
  // With a reason the loop goes on: the model is called again in the same turn.
  await expect.poll(() => model.calls(marker), { timeout: forAgentWork() }).toBe(3);
});

test("[R18.22] a subagent's permission belongs to its parent's session and names the subagent", async ({
  opencode: _opencode,
  sharedTui,
  model,
  remote,
}) => {
  const marker = 'OC-task';
  const subMarker = 'OC-sub-prompt';
  const task: ScriptedBlock[] = [
    {
      type: 'tool_call',
      id: 'call_task',
      name: 'task',
      input: { description: 'run sub', prompt: `${subMarker}: run it`, subagent_type: 'general' },
    },
  ];
  model.add({ marker: subMarker, turns: [bash('call_sub', 'echo from-sub')] });
  const { record } = await startConversation(
    { sharedTui, model, remote },
    { marker, turns: [task], prompt: 'delegate' },
    'call_sub',
  );
  expect(record.origin).toMatchObject({
    kind: 'subagent',
    depth: 1,
    path: ['general'],
    agentType: 'general',
    parentSessionId: record.sessionId,
  });
  expect(record.origin?.sessionId).not.toBe(record.sessionId);
  expect(record.origin?.label).toContain('general');
  // Its own session's title is the subagent's; the card's session is the parent's.
  expect(record.context?.sessionTitle).toBeDefined();
  expect(await remote.respond(record.requestId, { action: 'accept', content: { choice: 'once' } })).toMatchObject({
    ok: true,
  });
  await expect.poll(() => model.toolResult('call_sub')?.content, { timeout: forAgentWork() }).toBe('from-sub\n');
  await expect
    .poll(() => model.toolResult('call_task')?.content, { timeout: forAgentWork() })
    .toContain(`<task id="${record.origin?.sessionId}"`);
});

test('[R18.26] OpenCode closed with a card open: the card leaves with the reason, and a new OpenCode does not bring it back', async ({
  opencode: _opencode,
  sharedTui,
  model,
  remote,
}) => {
  // OpenCode starts a second time in this test.
  test.setTimeout(60_000 + TUI_START_TIMEOUT_MS);
  const marker = 'OC-restart';
  const { lab, record } = await startConversation(
    { sharedTui, model, remote },
    { marker, turns: [askQuestions('call_restart', [dbQuestion])] },
    'call_restart',
  );

  const listings = async () => (await lab.bridgeLog()).match(/OpenCode lists \d+ pending prompts?/g)?.length ?? 0;
  const before = await listings();
  // The terminal closes: OpenCode exits, the plugin's pipe ends, the bridge withdraws what was open.
  const shared = await sharedTui();
  await shared.restart(async () => {
    await expect.poll(() => remote.withdrawn(record.requestId)?.reason).toBe(OPENCODE_CLOSED_REASON);
  });
  // The new bridge read OpenCode's lists: a restart dropped the question, so nothing comes back.
  await expect.poll(listings).toBe(before + 1);
  expect(await lab.bridgeLog()).toMatch(/OpenCode lists 0 pending prompts\n$/);
  expect(remote.pending().filter((pending) => pending.agent?.kind === 'opencode')).toEqual([]);
});

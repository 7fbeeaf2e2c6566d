import { existsSync } from 'node:fs';
import path from 'node:path';
import { type ApprovalInput } from '../../lib/contracts';
import { ANSWERED_ON_PHONE_TEXT, TURN_CANCELLED_REASON } from '../../lib/runtime/agents/acp/terminal-answer';
import { type ScriptedBlock } from '../opencode/support/model-server';
import { COPILOT_VERSION } from '../copilot/support/copilot-binary';
import { expect, test } from './support/copilot-fixtures';
import { type EditorMessage } from './support/editor';

// The real Copilot CLI (`copilot --acp`, BYOK offline) behind `askaway acp`, driven by the suite's own ACP
// editor, against a scripted Chat Completions model: its `bash` tool's permission request, answered on the
// phone, in the editor, or rejected; the editor's cancel; and a hub that is down.

// One Copilot at a time (about 370 MB each), in order, without skipping the rest when one fails.
test.describe.configure({ mode: 'default' });

const isAcp = (record: { agent?: { kind: string } }) => record.agent?.kind === 'acp';
const methods = (received: EditorMessage[]) => received.map((message) => message.method).filter(Boolean);
const updates = (received: EditorMessage[]) =>
  received
    .filter((message) => message.method === 'session/update')
    .map(
      (message) => (message.params?.update ?? {}) as { sessionUpdate?: string; toolCallId?: string; status?: string },
    );
const bash = (id: string, command: string): ScriptedBlock[] => [
  { type: 'tool_call', id, name: 'bash', input: { command, description: `Runs ${command}` } },
];

test('[R18.37][R18.38] phone first, in the real app: Copilot runs the command, the editor is told and its dialog closes', async ({
  editor: start,
  model,
  phone,
  page,
  remote,
}) => {
  model.add({ marker: 'ACP-phone', turns: [bash('call-phone', 'touch made-on-phone.txt')] });
  const editor = await start({ onCancel: 'honour' });
  expect(editor.initialized.agentInfo).toMatchObject({ name: 'Copilot', version: COPILOT_VERSION });
  const turn = editor.prompt('ACP-phone: make the file');
  const asked = await editor.permission();
  // What Copilot asks: its three options, no "reject always".
  expect(asked.params?.options).toEqual([
    { optionId: 'allow_once', kind: 'allow_once', name: 'Allow once' },
    { optionId: 'allow_always', kind: 'allow_always', name: 'Always allow' },
    { optionId: 'reject_once', kind: 'reject_once', name: 'Deny' },
  ]);
  const record = await remote.next(isAcp);
  expect(record).toMatchObject({
    kind: 'approval',
    agent: { kind: 'acp', name: 'Copilot', version: COPILOT_VERSION },
    toolUseId: 'call-phone',
    context: { cwd: editor.project },
  });
  expect(record.input as ApprovalInput).toMatchObject({
    subject: 'command',
    command: 'touch made-on-phone.txt',
    choices: [
      { id: 'allow_once', label: 'Allow once', effect: 'allow' },
      { id: 'allow_always', label: 'Always allow', effect: 'allow-always', detail: expect.any(String) },
      { id: 'reject_once', label: 'Deny', effect: 'deny' },
    ],
  });
  await phone.waitForInteraction(record.requestId);
  await phone.goto('/');
  await expect(phone.inbox.item(record.requestId)).toContainText('touch made-on-phone.txt');
  await phone.openCard(record.requestId);
  await expect(page.getByTestId('card.approval-command')).toHaveText('touch made-on-phone.txt');
  await expect(page.getByTestId('card.approve')).toHaveText('Allow once');
  await expect(page.getByTestId('card.choice')).toHaveText([/^Always allow/]);
  await expect(page.getByTestId('card.reject')).toHaveText('Deny');
  await page.getByTestId('card.approve').click();
  await expect(page.getByTestId('card.receipt')).toBeVisible();

  expect(await turn).toMatchObject({ stopReason: 'end_turn' });
  expect(existsSync(path.join(editor.project, 'made-on-phone.txt'))).toBe(true);
  // The editor got the cancel for the request it was showing (Copilot numbers its requests from 0), then the
  // tool call moving on.
  const after = editor.received.slice(editor.received.indexOf(asked));
  expect(after.find((message) => message.method === '$/cancel_request')?.params).toEqual({ requestId: asked.id });
  expect(updates(after)).toContainEqual(expect.objectContaining({ toolCallId: 'call-phone', status: 'in_progress' }));
  expect(model.toolResult('call-phone')?.content).toContain('exit code 0');
});

test("[R18.39] editor first: Copilot gets the editor's answer, the card leaves as answered in the editor", async ({
  editor: start,
  model,
  remote,
}) => {
  model.add({ marker: 'ACP-editor', turns: [bash('call-editor', 'touch from-editor.txt')] });
  const editor = await start({ onCancel: 'honour' });
  const turn = editor.prompt('ACP-editor: make it');
  const asked = await editor.permission();
  const record = await remote.next(isAcp);
  editor.answer(asked.id ?? -1, 'allow_once');
  expect(await turn).toMatchObject({ stopReason: 'end_turn' });
  expect(existsSync(path.join(editor.project, 'from-editor.txt'))).toBe(true);
  await expect
    .poll(() => remote.withdrawn(record.requestId))
    .toEqual({
      reason: 'Answered in the editor',
      terminalAnswer: { where: 'editor', response: { action: 'accept', content: { choice: 'allow_once' } } },
    });
  // A phone answer after that is refused: the editor's answer stood.
  expect(await remote.respond(record.requestId, { action: 'accept', content: { choice: 'allow_once' } })).toMatchObject(
    { ok: false },
  );
  expect(methods(editor.received)).not.toContain('$/cancel_request');
});

test("[R18.38] the phone rejects: Copilot does not run the command and the editor's tool call ends as failed", async ({
  editor: start,
  model,
  remote,
}) => {
  model.add({ marker: 'ACP-reject', turns: [bash('call-reject', 'touch rejected.txt')] });
  // An editor that ignores the cancel and answers late: its allow must not reach Copilot.
  const editor = await start({ onCancel: 'ignore' });
  const turn = editor.prompt('ACP-reject: make it');
  const asked = await editor.permission();
  const record = await remote.next(isAcp);
  expect(await remote.respond(record.requestId, { action: 'decline' })).toMatchObject({ ok: true });
  await expect
    .poll(() => updates(editor.received).find((update) => update.status === 'failed'))
    .toMatchObject({
      toolCallId: 'call-reject',
      content: [{ type: 'content', content: { type: 'text', text: ANSWERED_ON_PHONE_TEXT } }],
    });
  editor.answer(asked.id ?? -1, 'allow_once');
  expect(await turn).toMatchObject({ stopReason: 'end_turn' });
  expect(existsSync(path.join(editor.project, 'rejected.txt'))).toBe(false);
  // Copilot's own word to the editor after the proxy's: rejected. It ends the turn on a Deny without calling
  // the model again.
  expect(updates(editor.received)).toContainEqual(
    expect.objectContaining({
      toolCallId: 'call-reject',
      status: 'failed',
      rawOutput: expect.objectContaining({ code: 'rejected' }),
    }),
  );
  expect(model.calls('ACP-reject')).toBe(1);
});

test('[R18.39] the editor cancels the turn: the card leaves with the reason', async ({
  editor: start,
  model,
  remote,
}) => {
  model.add({ marker: 'ACP-cancel', turns: [bash('call-cancel', 'touch never.txt')] });
  const editor = await start({ onCancel: 'honour' });
  const turn = editor.prompt('ACP-cancel: make it');
  const asked = await editor.permission();
  const record = await remote.next(isAcp);
  editor.cancel();
  // ACP: the editor answers the waiting request as cancelled after its session/cancel.
  editor.cancelled(asked.id ?? -1);
  expect(await turn).toMatchObject({ stopReason: 'cancelled' });
  await expect.poll(() => remote.withdrawn(record.requestId)?.reason).toBe(TURN_CANCELLED_REASON);
  expect(existsSync(path.join(editor.project, 'never.txt'))).toBe(false);
});

test("[R18.40] with the hub down the editor's session with Copilot is as without the proxy", async ({
  editor: start,
  model,
}) => {
  model.add({ marker: 'ACP-down', turns: [bash('call-down', 'touch hub-down.txt')] });
  const editor = await start({ onCancel: 'honour', hub: { url: 'http://127.0.0.1:9', token: 'no-hub' } });
  const turn = editor.prompt('ACP-down: make it');
  const asked = await editor.permission();
  editor.answer(asked.id ?? -1, 'allow_once');
  expect(await turn).toMatchObject({ stopReason: 'end_turn' });
  expect(existsSync(path.join(editor.project, 'hub-down.txt'))).toBe(true);
  expect(methods(editor.received)).not.toContain('$/cancel_request');
});

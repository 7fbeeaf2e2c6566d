import { existsSync } from 'node:fs';
import path from 'node:path';
import { type ApprovalInput } from '../../lib/contracts';
import { ANSWERED_ON_PHONE_TEXT, TURN_CANCELLED_REASON } from '../../lib/runtime/agents/acp/terminal-answer';
import { expect, test } from './support/fixtures';
import { type EditorMessage } from './support/editor';

// The real Gemini CLI (`gemini --acp`) behind `askaway acp`, driven by the suite's own ACP editor, against a
// scripted Gemini API: its shell command's permission request, answered on the phone, in the editor, or
// rejected; the editor's cancel; and a hub that is down.

const isAcp = (record: { agent?: { kind: string } }) => record.agent?.kind === 'acp';
const methods = (received: EditorMessage[]) => received.map((message) => message.method).filter(Boolean);

test('[R18.37][R18.38] phone first, in the real app: Gemini runs the command, the editor is told and its dialog closes', async ({
  editor: start,
  model,
  phone,
  page,
  remote,
}) => {
  model.add({ marker: 'ACP-phone', command: 'touch made-on-phone.txt' });
  const editor = await start({ onCancel: 'honour' });
  const turn = editor.prompt('ACP-phone: make the file');
  const asked = await editor.permission();
  const { requestId } = await remote.next(isAcp);
  await phone.waitForInteraction(requestId);
  await phone.goto('/');
  await expect(phone.inbox.item(requestId)).toContainText('touch made-on-phone.txt');
  await phone.openCard(requestId);
  await expect(page.getByTestId('card.approval-command')).toHaveText('touch made-on-phone.txt');
  await expect(page.getByTestId('card.reject')).toHaveText('Reject');
  await page.getByTestId('card.approve').click();
  await expect(page.getByTestId('card.receipt')).toBeVisible();

  expect(await turn).toMatchObject({ stopReason: 'end_turn' });
  expect(existsSync(path.join(editor.project, 'made-on-phone.txt'))).toBe(true);
  // The editor got the cancel for the request it was showing, then the tool call moving on.
  const after = editor.received.slice(editor.received.indexOf(asked));
  expect(after.find((message) => message.method === '$/cancel_request')?.params).toEqual({ requestId: asked.id });
  expect(
    after.some(
      (message) =>
        message.method === 'session/update' &&
        (message.params?.update as { status?: string } | undefined)?.status === 'in_progress',
    ),
  ).toBe(true);
  expect(model.results('ACP-phone')).toHaveLength(1);
});

test("[R18.37][R18.38] an editor that ignores the cancel and answers late: the agent keeps the phone's answer", async ({
  editor: start,
  model,
  remote,
}) => {
  model.add({ marker: 'ACP-late', command: 'touch late.txt' });
  const editor = await start({ onCancel: 'ignore' });
  const turn = editor.prompt('ACP-late: make it');
  const asked = await editor.permission();
  const record = await remote.next(isAcp);
  expect(record).toMatchObject({ kind: 'approval', agent: { kind: 'acp' }, context: { cwd: editor.project } });
  expect((record.input as ApprovalInput).choices).toEqual([
    { id: 'proceed_always', label: 'Allow for this session', effect: 'allow-session', detail: expect.any(String) },
    { id: 'proceed_once', label: 'Allow', effect: 'allow' },
    { id: 'cancel', label: 'Reject', effect: 'deny' },
  ]);
  expect(
    await remote.respond(record.requestId, { action: 'accept', content: { choice: 'proceed_once' } }),
  ).toMatchObject({
    ok: true,
  });
  await expect.poll(() => methods(editor.received)).toContain('$/cancel_request');
  // The editor's own dialog answers after all: a reject, which must not reach the agent.
  editor.answer(asked.id ?? -1, 'cancel');
  expect(await turn).toMatchObject({ stopReason: 'end_turn' });
  expect(existsSync(path.join(editor.project, 'late.txt'))).toBe(true);
});

test("[R18.39] editor first: Gemini gets the editor's answer, the card leaves as answered in the editor", async ({
  editor: start,
  model,
  remote,
}) => {
  model.add({ marker: 'ACP-editor', command: 'touch from-editor.txt' });
  const editor = await start({ onCancel: 'honour' });
  const turn = editor.prompt('ACP-editor: make it');
  const asked = await editor.permission();
  const record = await remote.next(isAcp);
  editor.answer(asked.id ?? -1, 'proceed_once');
  expect(await turn).toMatchObject({ stopReason: 'end_turn' });
  expect(existsSync(path.join(editor.project, 'from-editor.txt'))).toBe(true);
  await expect
    .poll(() => remote.withdrawn(record.requestId))
    .toEqual({
      reason: 'Answered in the editor',
      terminalAnswer: { where: 'editor', response: { action: 'accept', content: { choice: 'proceed_once' } } },
    });
  // A phone answer after that is refused: the editor's answer stood.
  expect(
    await remote.respond(record.requestId, { action: 'accept', content: { choice: 'proceed_once' } }),
  ).toMatchObject({
    ok: false,
  });
});

test("[R18.38] the phone rejects: Gemini does not run the command and the editor's tool call ends as failed", async ({
  editor: start,
  model,
  remote,
}) => {
  model.add({ marker: 'ACP-reject', command: 'touch rejected.txt' });
  const editor = await start({ onCancel: 'honour' });
  void editor.prompt('ACP-reject: make it');
  await editor.permission();
  const record = await remote.next(isAcp);
  await remote.respond(record.requestId, { action: 'decline' });
  await expect
    .poll(
      () =>
        editor.received.find(
          (message) =>
            message.method === 'session/update' &&
            (message.params?.update as { status?: string } | undefined)?.status === 'failed',
        )?.params?.update,
    )
    .toMatchObject({ content: [{ type: 'content', content: { type: 'text', text: ANSWERED_ON_PHONE_TEXT } }] });
  expect(existsSync(path.join(editor.project, 'rejected.txt'))).toBe(false);
});

test('[R18.39] the editor cancels the turn: the card leaves with the reason', async ({
  editor: start,
  model,
  remote,
}) => {
  model.add({ marker: 'ACP-cancel', command: 'touch never.txt' });
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

test("[R18.40] with the hub down the editor's session is as without the proxy", async ({ editor: start, model }) => {
  model.add({ marker: 'ACP-down', command: 'touch hub-down.txt' });
  const editor = await start({ onCancel: 'honour', hub: { url: 'http://127.0.0.1:9', token: 'no-hub' } });
  const turn = editor.prompt('ACP-down: make it');
  const asked = await editor.permission();
  editor.answer(asked.id ?? -1, 'proceed_once');
  expect(await turn).toMatchObject({ stopReason: 'end_turn' });
  expect(existsSync(path.join(editor.project, 'hub-down.txt'))).toBe(true);
});

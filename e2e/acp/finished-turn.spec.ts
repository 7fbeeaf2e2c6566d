import { FINISHED_TURN_EDITOR_REASON, type InteractionRecord } from '../../lib/contracts';
import { type ScriptedRemote } from '../../lib/runtime/test-support/scripted-remote';
import { forAgentWork } from '../support/agent-wait';
import { expect, test } from './support/fixtures';

// Finished turns of the real Gemini CLI (`gemini --acp`) behind `askaway acp` (R19.60–R19.65), driven by the
// suite's own ACP editor against a scripted Gemini API: each prompt's end is a card without a reply box, the
// editor's next prompt answers it, a cancelled prompt is interrupted, a failed one failed.

type TurnInput = Extract<InteractionRecord, { kind: 'finished-turn' }>['input'];

/** The finished-turn card of Gemini CLI whose input `match`es. */
function turnCard(remote: ScriptedRemote, match: (input: TurnInput) => boolean): Promise<InteractionRecord> {
  return remote.next(
    (record) => record.kind === 'finished-turn' && record.agent?.kind === 'acp' && match(record.input),
    forAgentWork(),
  );
}
const saying = (text: string) => (input: TurnInput) => (input.message ?? '').includes(text);

test('[R19.60][R19.61][R19.62][R19.65] Gemini CLI: the finished turn on the phone without a reply box, the editor’s next prompt answers it, Dismiss reaches nobody', async ({
  editor: start,
  model,
  phone,
  page,
  remote,
}) => {
  model.add({ marker: 'E2E-FT-first', reply: 'TURN-DONE-1: the widget is blue.\nSay what next.' });
  model.add({ marker: 'E2E-FT-second', reply: 'TURN-DONE-2: red it is.' });
  const editor = await start({ onCancel: 'honour' });

  const first = await test.step('the prompt ends: its card shows Gemini’s last message, no reply box', async () => {
    expect(await editor.prompt('E2E-FT-first: paint the widget')).toMatchObject({ stopReason: 'end_turn' });
    const card = await turnCard(remote, saying('TURN-DONE-1'));
    expect(card).toMatchObject({
      kind: 'finished-turn',
      toolName: 'finished-turn',
      sessionId: editor.sessionId,
      agent: { kind: 'acp', name: 'Gemini CLI' },
      origin: { kind: 'root' },
      context: { cwd: editor.project },
      input: { status: 'completed', message: 'TURN-DONE-1: the widget is blue.\nSay what next.', reply: 'none' },
    });
    expect(card.requestId).toBe(`turn:${editor.sessionId}:${card.origin?.turnId ?? ''}`);
    await phone.openCard(card.requestId);
    await expect(page.getByTestId('turn.status')).toHaveText('Finished');
    await expect(page.getByTestId('turn.message')).toContainText('TURN-DONE-1: the widget is blue.');
    await expect(page.getByTestId('turn.no-reply')).toContainText(
      'Gemini CLI runs in an editor, which owns its prompt',
    );
    await expect(page.getByTestId('turn.reply')).toHaveCount(0);
    await expect(page.getByTestId('turn.send')).toHaveCount(0);
    await expect(page.getByTestId('turn.dismiss')).toBeVisible();
    return card;
  });

  const second = await test.step('the editor’s next prompt withdraws the card as answered in the editor', async () => {
    const turn = editor.prompt('E2E-FT-second: make it red');
    await expect
      .poll(() => remote.withdrawn(first.requestId), { timeout: forAgentWork() })
      .toEqual({ reason: FINISHED_TURN_EDITOR_REASON, terminalAnswer: { where: 'editor' } });
    await expect(page.getByTestId('card.receipt')).toHaveAttribute('data-state', 'terminal');
    expect(await turn).toMatchObject({ stopReason: 'end_turn' });
    const card = await turnCard(remote, saying('TURN-DONE-2'));
    expect(card.sessionId).toBe(editor.sessionId);
    expect(card.requestId).not.toBe(first.requestId);
    return card;
  });

  await test.step('Dismiss on the phone ends the card and sends nothing to the editor or Gemini', async () => {
    const received = editor.received.length;
    const calls = model.calls('E2E-FT-second');
    await phone.openCard(second.requestId);
    await expect(page.getByTestId('turn.reply')).toHaveCount(0);
    await page.getByTestId('turn.dismiss').click();
    await expect(page.getByTestId('card.receipt')).toHaveAttribute('data-state', 'dismissed');
    await expect.poll(() => remote.pending().some((record) => record.requestId === second.requestId)).toBe(false);
    // Nothing the proxy could have sent has come by a second after: no prompt, no update, no model call.
    await page.waitForTimeout(1_000);
    expect(editor.received.slice(received)).toEqual([]);
    expect(model.calls('E2E-FT-second')).toBe(calls);
  });
});

test('[R19.61][R19.63] Gemini CLI: a cancelled prompt shows as interrupted with what it had said; a failed one as failed', async ({
  editor: start,
  model,
  phone,
  page,
  remote,
}) => {
  model.add({ marker: 'E2E-FT-hold', hold: 'TURN-PARTIAL: halfway there' });
  model.add({ marker: 'E2E-FT-fail', fail: 'E2E model refused' });
  const editor = await start({ onCancel: 'honour' });

  await test.step('the editor cancels the running prompt: its card says interrupted', async () => {
    const turn = editor.prompt('E2E-FT-hold: a long job');
    await expect
      .poll(
        () =>
          editor.received.some(
            (message) =>
              message.method === 'session/update' &&
              JSON.stringify(message.params?.update ?? {}).includes('TURN-PARTIAL'),
          ),
        { timeout: forAgentWork() },
      )
      .toBe(true);
    editor.cancel();
    expect(await turn).toMatchObject({ stopReason: 'cancelled' });
    const card = await turnCard(remote, (input) => input.status === 'interrupted');
    expect(card.input).toEqual({ status: 'interrupted', message: 'TURN-PARTIAL: halfway there', reply: 'none' });
    await phone.openCard(card.requestId);
    await expect(page.getByTestId('turn.status')).toHaveText('Interrupted');
    await expect(page.getByTestId('turn.message')).toContainText('TURN-PARTIAL: halfway there');
  });

  await test.step('the model refuses the request: the prompt’s error makes the card failed, with why', async () => {
    const reply = await editor.promptReply('E2E-FT-fail: try');
    expect(reply.error).toMatchObject({ code: 400 });
    const card = await turnCard(remote, (input) => input.status === 'failed');
    expect(card.input).toEqual({ status: 'failed', error: 'E2E model refused', reply: 'none' });
    await phone.openCard(card.requestId);
    await expect(page.getByTestId('turn.status')).toHaveText('Failed (E2E model refused)');
  });
});

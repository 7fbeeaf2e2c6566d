import { type InteractionRecord } from '../../lib/contracts';
import { DAEMON_GONE_REASON } from '../../lib/runtime/agents/codex/terminal-answer';
import { expect, test } from './support/fixtures';
import { ask, callId, cardFor, colorQuestion, modelRead } from './support/scenarios';
import { forAgentWork } from '../support/agent-wait';

// The daemon dies while a question waits, and a new one starts (`codex app-server daemon start`, as
// "Restart" or the next TUI would). Codex loses the pending request (the model reads "aborted"); the
// bridge re-attaches and re-joins by itself, and the next question is one card, answered once.

test('[R18.14] the daemon restarted while a question waits: its card leaves, the bridge re-joins, the next question is answered once', async ({
  session,
  remote,
}) => {
  const first = 'E2E-before-restart';
  const second = 'E2E-after-restart';
  const codex = await session({
    conversations: [
      { marker: first, turns: [ask([colorQuestion]), [{ type: 'text', text: `finished ${first}` }]] },
      { marker: second, turns: [ask([colorQuestion]), [{ type: 'text', text: `finished ${second}` }]] },
    ],
  });
  const bridge = await codex.bridge();
  const tui = await codex.tui();
  await tui.ready({ plan: true });
  await tui.submit(`${first}: pick a color`);
  const lost = await cardFor(remote, (record) => record.toolUseId === callId(first, 0, 1));
  const threadId = lost.sessionId;

  await codex.home.stopDaemon({ kill: true });
  await expect.poll(() => remote.withdrawn(lost.requestId)).toEqual({ reason: DAEMON_GONE_REASON });
  expect(await remote.respond(lost.requestId, { action: 'accept', content: { answers: {} } })).toMatchObject({
    ok: false,
    error: { code: 'withdrawn' },
  });
  await codex.home.startDaemon();
  await bridge.logged(/attached to the Codex daemon[^\n]*\n[\s\S]*attached to the Codex daemon/);
  // The TUI reconnects by itself ("Reconnecting to server…" while it cannot).
  await tui.waitFor(/Conversation interrupted/, forAgentWork());

  await tui.ready({ plan: true });
  await tui.submit(`${second}: pick again`);
  const card = await cardFor(remote, (record) => record.toolUseId === callId(second, 0, 1));
  expect(card.sessionId).toBe(threadId);
  expect(remote.pending().filter((record) => record.sessionId === threadId && isPrompt(record))).toHaveLength(1);
  await remote.respond(card.requestId, {
    action: 'accept',
    content: { answers: { [colorQuestion.question]: 'Blue' } },
  });
  expect(JSON.parse((await modelRead(codex.model, callId(second, 0, 1))).text)).toEqual({
    answers: { color: { answers: ['Blue'] } },
  });
  expect((await modelRead(codex.model, callId(first, 0, 1))).text).toBe('aborted');
  await tui.waitFor(new RegExp(`finished ${second}`));
  // Answered once: no other output for either call, and no prompt left on the phone (the finished turn's card is
  // the turn's end, R19.20, not a prompt).
  expect(codex.model.toolOutputs().map((output) => output.callId)).toEqual([callId(first, 0, 1), callId(second, 0, 1)]);
  expect(remote.pending().filter((record) => record.sessionId === threadId && isPrompt(record))).toEqual([]);
});

/** A prompt Codex waits on, not a finished turn's card. */
function isPrompt(record: InteractionRecord): boolean {
  return record.kind !== 'finished-turn';
}

import { COPILOT_VERSION } from '../copilot/support/copilot-binary';
import { forAgentWork } from '../support/agent-wait';
import { expect, test } from './support/copilot-fixtures';

// Finished turns of the real Copilot CLI (`copilot --acp`, BYOK offline) behind `askaway acp` (R19.60, R19.61):
// Copilot relays its subagent's message as an `agent_message_chunk` of the root session while the `task` tool call
// runs, with nothing to tell it apart but that tool call; the card shows the root agent's own last message, also
// when the person stops the turn while the subagent works and the subagent's message came last.

test('[R19.60][R19.61] Copilot: a turn cancelled while its subagent works shows the root agent’s last message, never the subagent’s', async ({
  editor: start,
  model,
  remote,
}) => {
  model.add({
    marker: 'ACP-FT-root',
    turns: [
      [
        { type: 'text', text: 'Starting a helper.' },
        {
          type: 'tool_call',
          id: 'task-1',
          name: 'task',
          input: {
            description: 'helper',
            prompt: 'ACP-FT-inner: check the tests',
            agent_type: 'general-purpose',
            name: 'helper',
          },
        },
      ],
    ],
  });
  model.add({
    marker: 'ACP-FT-inner',
    turns: [
      [
        { type: 'text', text: 'SUB-DONE: all green.' },
        { type: 'tool_call', id: 'sub-bash', name: 'bash', input: { command: 'touch sub.txt', description: 'Touch' } },
      ],
    ],
  });
  const editor = await start({ onCancel: 'honour' });
  const turn = editor.prompt('ACP-FT-root: ask a helper');
  // The subagent's shell command asks: the subagent has spoken by now, as the root session.
  const asked = await editor.permission();
  const chunks = editor.received.filter(
    (message) =>
      message.method === 'session/update' &&
      (message.params?.update as { sessionUpdate?: string } | undefined)?.sessionUpdate === 'agent_message_chunk',
  );
  expect(JSON.stringify(chunks)).toContain('SUB-DONE: all green.');
  expect(chunks.every((message) => message.params?.sessionId === editor.sessionId)).toBe(true);
  editor.cancel();
  editor.cancelled(asked.id ?? -1);
  expect(await turn).toMatchObject({ stopReason: 'cancelled' });

  const card = await remote.next((record) => record.kind === 'finished-turn', forAgentWork());
  expect(card).toMatchObject({
    sessionId: editor.sessionId,
    agent: { kind: 'acp', name: 'Copilot', version: COPILOT_VERSION },
    input: { status: 'interrupted', message: 'Starting a helper.', reply: 'none' },
  });
  const messages = remote
    .pending()
    .flatMap((record) => (record.kind === 'finished-turn' ? [record.input.message] : []));
  expect(messages).toEqual(['Starting a helper.']);
});

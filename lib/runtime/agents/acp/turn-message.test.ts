import { describe, expect, it } from 'vitest';
import { FINISHED_TURN_MESSAGE_MAX } from '../../../contracts';
import { type SessionUpdate } from './acp-shapes';
import { RUNNING_TOOL_CALLS_MAX, TurnMessage } from './turn-message';

const chunk = (text: string, messageId?: string): SessionUpdate => ({
  sessionUpdate: 'agent_message_chunk',
  content: { type: 'text', text },
  ...(messageId ? { messageId } : {}),
});
const toolCall = (toolCallId: string, status = 'pending'): SessionUpdate => ({
  sessionUpdate: 'tool_call',
  toolCallId,
  status,
});
const toolDone = (toolCallId: string, status = 'completed'): SessionUpdate => ({
  sessionUpdate: 'tool_call_update',
  toolCallId,
  status,
});

function play(updates: (SessionUpdate | 'permission')[]): TurnMessage {
  const message = new TurnMessage();
  for (const update of updates) {
    if (update === 'permission') message.interrupt();
    else message.update(update);
  }
  return message;
}

describe('[R19.60] the last message of an ACP turn', () => {
  it('[R19.60] joins the chunks of one message; thoughts, usage and titles change nothing', () => {
    const message = play([
      chunk('Hello part one, '),
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'thinking' } },
      { sessionUpdate: 'usage_update' },
      chunk('part two.'),
    ]);
    expect(message.result()).toEqual({ message: 'Hello part one, part two.', messageLength: 25 });
  });

  it('[R19.60] a tool call ends a message: the one after it is the last (Gemini CLI and Copilot, measured)', () => {
    const message = play([
      chunk('First message before tool.'),
      toolCall('c1', 'in_progress'),
      toolDone('c1'),
      chunk('Second message after tool.'),
    ]);
    expect(message.result().message).toBe('Second message after tool.');
  });

  it('[R19.60] a permission request ends a message: Gemini CLI sends no tool call around one', () => {
    // Gemini CLI 0.61 after a rejected permission: its model goes on with no tool_call or tool_call_update at all.
    const message = play([chunk('First message before tool.'), 'permission', chunk('Second message after tool.')]);
    expect(message.result().message).toBe('Second message after tool.');
  });

  it('[R19.60] an interrupted turn keeps the last thing said before the tool call that was running', () => {
    const message = play([chunk('partial words'), toolCall('h1'), 'permission']);
    expect(message.result().message).toBe('partial words');
  });

  it("[R19.60] what is said while a tool call runs is not the agent's: Copilot's subagent speaks then", () => {
    // Copilot 1.0.102's `task` tool, as measured: the subagent's message comes as the root session's chunk.
    const message = play([
      chunk('Starting a helper.'),
      toolCall('t1'),
      chunk('SUB-DONE inner words'),
      toolDone('t1'),
      chunk('ROOT-DONE'),
    ]);
    expect(message.result().message).toBe('ROOT-DONE');
    // Cancelled while the subagent still talked: the root's own last message.
    expect(play([chunk('Starting a helper.'), toolCall('t1'), chunk('SUB-DONE')]).result().message).toBe(
      'Starting a helper.',
    );
    // A failed tool call ends too; one that arrives already completed never runs.
    expect(play([toolCall('t2'), toolDone('t2', 'failed'), chunk('after')]).result().message).toBe('after');
    expect(play([toolCall('t3', 'completed'), chunk('after')]).result().message).toBe('after');
  });

  it('[R19.60] a new messageId starts a new message; a user message ends one', () => {
    expect(play([chunk('one', 'm1'), chunk(' more', 'm1'), chunk('two', 'm2')]).result().message).toBe('two');
    expect(
      play([chunk('agent'), { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'x' } }]).result()
        .message,
    ).toBe('agent');
  });

  it('[R19.60] no text, blank text or other content: no message', () => {
    expect(play([]).result()).toEqual({});
    expect(play([chunk('  \n')]).result()).toEqual({});
    expect(play([{ sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: 'AAAA' } }]).result()).toEqual(
      {},
    );
    // A blank message after a real one leaves the real one last.
    expect(play([chunk('real'), toolCall('x', 'completed'), chunk(' ')]).result().message).toBe('real');
  });

  it('[R19.64][R12.19] keeps only the start of a long message and counts its length', () => {
    const part = 'y'.repeat(7_000);
    const message = new TurnMessage();
    for (let index = 0; index < 10; index += 1) message.update(chunk(part));
    const result = message.result();
    expect(result.message).toBe('y'.repeat(FINISHED_TURN_MESSAGE_MAX));
    expect(result.messageLength).toBe(70_000);
  });

  it('[R12.19] remembers at most RUNNING_TOOL_CALLS_MAX running tool calls', () => {
    const message = new TurnMessage();
    for (let index = 0; index <= RUNNING_TOOL_CALLS_MAX; index += 1) message.update(toolCall(`t${index}`));
    // The first was forgotten: ending every other one leaves nothing running.
    for (let index = 1; index <= RUNNING_TOOL_CALLS_MAX; index += 1) message.update(toolDone(`t${index}`));
    message.update(chunk('heard'));
    expect(message.result().message).toBe('heard');
  });
});

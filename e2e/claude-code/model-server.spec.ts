import { expect, test } from '@playwright/test';
import { startScriptedModel, type ScriptedModel } from './support/model-server';

// The scripted model itself (no Claude Code needed): the stream Claude Code parses, side calls, records.

let model: ScriptedModel;
test.beforeEach(async () => {
  model = await startScriptedModel([
    {
      marker: 'E2E-model',
      turns: [[{ type: 'tool_use', id: 'toolu_m', name: 'AskUserQuestion', input: { questions: [{ q: 'a, "b"' }] } }]],
    },
  ]);
});
test.afterEach(() => model.close());

const tools = [{ name: 'AskUserQuestion' }];

async function post(body: unknown, path = '/v1/messages?beta=true') {
  return fetch(`${model.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
}

function events(text: string): { type: string; [key: string]: unknown }[] {
  return text
    .split('\n\n')
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => {
      const [eventLine, dataLine] = chunk.split('\n');
      const data = JSON.parse((dataLine ?? '').replace(/^data: /, '')) as { type: string };
      expect(eventLine).toBe(`event: ${data.type}`);
      return data;
    });
}

test('streams a scripted tool call as Messages API events, the input split across input_json_delta', async () => {
  const response = await post({ stream: true, tools, messages: [{ role: 'user', content: 'E2E-model: go' }] });
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const stream = events(await response.text());
  expect(stream.map((event) => event.type)).toEqual([
    'message_start',
    'content_block_start',
    'content_block_delta',
    'content_block_delta',
    'content_block_stop',
    'message_delta',
    'message_stop',
  ]);
  const json = stream
    .filter((event) => event.type === 'content_block_delta')
    .map((event) => (event.delta as { partial_json: string }).partial_json)
    .join('');
  expect(JSON.parse(json)).toEqual({ questions: [{ q: 'a, "b"' }] });
  expect(stream[5]).toMatchObject({ delta: { stop_reason: 'tool_use' } });
  expect(model.requests).toMatchObject([{ conversation: 'E2E-model', turn: 0, toolNames: ['AskUserQuestion'] }]);
});

test('records tool results and what follows them, ends a conversation past its script with "done", answers side calls with "OK"', async () => {
  const history = [
    { role: 'user', content: [{ type: 'text', text: 'E2E-model: go' }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_m', name: 'AskUserQuestion', input: {} }] },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_m', content: [{ type: 'text', text: 'answered' }] }],
    },
    { role: 'system', content: [{ type: 'text', text: 'hook additional context' }] },
  ];
  const done = await (await post({ tools, messages: history })).json();
  expect(done).toMatchObject({ content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' });
  expect(model.toolResult('toolu_m')).toEqual({
    conversation: 'E2E-model',
    toolUseId: 'toolu_m',
    content: 'answered',
    isError: false,
  });
  expect(model.textsAfter('toolu_m')).toEqual(['hook additional context']);

  // A title or summary request quotes the prompt but carries no tools: a side call.
  const side = await (await post({ messages: [{ role: 'user', content: 'Title for: E2E-model: go' }] })).json();
  expect(side).toMatchObject({ content: [{ type: 'text', text: 'OK' }] });
  expect(model.requests.at(-1)?.conversation).toBeUndefined();

  expect(await (await post({}, '/v1/messages/count_tokens')).json()).toEqual({ input_tokens: 1 });
  expect((await post({}, '/v1/other')).status).toBe(404);
});

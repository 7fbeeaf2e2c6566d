import http from 'node:http';
import { type AddressInfo } from 'node:net';

/** One content block the scripted model sends: text, or a tool call streamed as `input_json_delta`. */
export type ScriptedBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  /** The API refuses the call: HTTP 400 (not retried) with this message, as a failed turn ends. */
  | { type: 'error'; message: string };

/** What the model says on one turn; a function sees the request it answers (e.g. to read a path from it). */
export type ScriptedTurn = ScriptedBlock[] | ((request: MessagesRequest) => ScriptedBlock[]);

/**
 * A conversation the model plays: recognised by `marker` in its first user message (the prompt of the
 * main session, or the prompt a subagent was started with), one scripted turn per assistant message.
 */
export interface ScriptedConversation {
  marker: string;
  turns: ScriptedTurn[];
}

export interface MessagesRequest {
  model?: string;
  messages: { role: string; content: unknown }[];
  system?: unknown;
  tools?: { name: string }[];
  stream?: boolean;
}

export interface RecordedRequest {
  /** The conversation's marker, or undefined for a side call (titles, summaries, …). */
  conversation: string | undefined;
  /** Assistant messages already in the request: 0 on the first call of a conversation. */
  turn: number;
  toolNames: string[];
  body: MessagesRequest;
}

/** A `tool_result` block Claude Code sent back: what the model really read. */
export interface ToolResult {
  conversation: string | undefined;
  toolUseId: string;
  content: string;
  isError: boolean;
}

export interface ScriptedModel {
  /** The base URL for ANTHROPIC_BASE_URL. */
  url: string;
  requests: RecordedRequest[];
  /** Every distinct tool_result Claude Code sent, in order. */
  toolResults(): ToolResult[];
  toolResult(toolUseId: string): ToolResult | undefined;
  /**
   * What else the model read with that tool result: the text of the messages after it, up to the next
   * assistant turn (e.g. a hook's additionalContext, which Claude Code sends as a system message).
   */
  textsAfter(toolUseId: string): string[];
  close(): Promise<void>;
}

/** Sent when a conversation has run out of script, and to every side call. */
export const DONE_TEXT = 'done';
const SIDE_CALL_TEXT = 'OK';

type Block = { type?: unknown; text?: unknown; content?: unknown; tool_use_id?: unknown; is_error?: unknown };

function blocksOf(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as Block[]) : [];
}

function textOf(content: unknown): string {
  return blocksOf(content)
    .map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
    .join('\n');
}

export function toolResultsIn(request: MessagesRequest): Omit<ToolResult, 'conversation'>[] {
  return request.messages.flatMap((message) =>
    message.role !== 'user'
      ? []
      : blocksOf(message.content)
          .filter((block) => block.type === 'tool_result' && typeof block.tool_use_id === 'string')
          .map((block) => ({
            toolUseId: String(block.tool_use_id),
            content: textOf(block.content),
            isError: block.is_error === true,
          })),
  );
}

function sseEvents(blocks: ScriptedBlock[], id: string, model: string): string {
  const events: [string, Record<string, unknown>][] = [
    [
      'message_start',
      {
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      },
    ],
  ];
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      events.push(['content_block_start', { index, content_block: { type: 'text', text: '' } }]);
      events.push(['content_block_delta', { index, delta: { type: 'text_delta', text: block.text } }]);
    } else if (block.type === 'tool_use') {
      const start = { type: 'tool_use', id: block.id, name: block.name, input: {} };
      events.push(['content_block_start', { index, content_block: start }]);
      const json = JSON.stringify(block.input);
      // Two deltas, as a real stream splits the JSON: Claude Code must join them.
      const cut = Math.floor(json.length / 2);
      for (const part of [json.slice(0, cut), json.slice(cut)])
        events.push(['content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } }]);
    }
    events.push(['content_block_stop', { index }]);
  });
  const stopReason = blocks.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
  events.push([
    'message_delta',
    { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 1 } },
  ]);
  events.push(['message_stop', {}]);
  return events.map(([type, data]) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`).join('');
}

function messageJson(blocks: ScriptedBlock[], id: string, model: string) {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: blocks,
    stop_reason: blocks.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
}

/**
 * A local Anthropic Messages API that plays scripted conversations (streaming SSE or plain JSON) and
 * records every request, so a test asserts on what Claude Code actually sent the model.
 */
export async function startScriptedModel(conversations: ScriptedConversation[]): Promise<ScriptedModel> {
  const requests: RecordedRequest[] = [];
  let counter = 0;

  const classify = (body: MessagesRequest): Pick<RecordedRequest, 'conversation' | 'turn'> => {
    const first = body.messages[0];
    const toolNames = (body.tools ?? []).map((tool) => tool.name);
    // Side calls (titles, summaries) may quote the prompt, but carry no tools.
    const found =
      first && toolNames.length > 0
        ? conversations.find((conversation) => textOf(first.content).includes(conversation.marker))
        : undefined;
    return {
      conversation: found?.marker,
      turn: body.messages.filter((message) => message.role === 'assistant').length,
    };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      let body: MessagesRequest;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as MessagesRequest;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"type":"error"}');
        return;
      }
      if (url.pathname === '/v1/messages/count_tokens') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"input_tokens":1}');
        return;
      }
      if (url.pathname !== '/v1/messages' || !Array.isArray(body.messages)) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: url.pathname } }));
        return;
      }
      const { conversation, turn } = classify(body);
      requests.push({ conversation, turn, toolNames: (body.tools ?? []).map((tool) => tool.name), body });
      const scripted = conversations.find((candidate) => candidate.marker === conversation)?.turns[turn];
      const blocks: ScriptedBlock[] =
        conversation === undefined
          ? [{ type: 'text', text: SIDE_CALL_TEXT }]
          : scripted === undefined
            ? [{ type: 'text', text: DONE_TEXT }]
            : typeof scripted === 'function'
              ? scripted(body)
              : scripted;
      const refusal = blocks.find((block) => block.type === 'error');
      if (refusal) {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: refusal.message } }));
        return;
      }
      counter += 1;
      const id = `msg_e2e_${counter}`;
      const model = body.model ?? 'claude-e2e';
      if (body.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.end(sseEvents(blocks, id, model));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(messageJson(blocks, id, model)));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const toolResults = (): ToolResult[] => {
    const seen = new Map<string, ToolResult>();
    for (const request of requests)
      for (const result of toolResultsIn(request.body))
        if (!seen.has(result.toolUseId)) seen.set(result.toolUseId, { ...result, conversation: request.conversation });
    return [...seen.values()];
  };

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    toolResults,
    toolResult: (toolUseId) => toolResults().find((result) => result.toolUseId === toolUseId),
    textsAfter(toolUseId) {
      for (const { body } of requests) {
        const at = body.messages.findIndex((message) =>
          blocksOf(message.content).some((block) => block.type === 'tool_result' && block.tool_use_id === toolUseId),
        );
        if (at === -1) continue;
        const after = body.messages.slice(at + 1);
        const end = after.findIndex((message) => message.role === 'assistant');
        return (end === -1 ? after : after.slice(0, end)).map((message) => textOf(message.content)).filter(Boolean);
      }
      return [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

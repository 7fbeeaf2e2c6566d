import http from 'node:http';
import { type AddressInfo } from 'node:net';

/**
 * A scripted OpenAI Chat Completions API for OpenCode's bundled `@ai-sdk/openai-compatible` provider
 * (`providerConfig` points a project at it): streams SSE with tool calls in `choices[].delta.tool_calls`,
 * and records every request, so a test asserts on what OpenCode really sent the model back.
 */

/** One thing the model says: text, or a tool call (streamed as two argument deltas, as real streams split them). */
export type ScriptedBlock =
  { type: 'text'; text: string } | { type: 'tool_call'; id: string; name: string; input: unknown };

/** The call fails with this HTTP status and message (a 400 is an error OpenCode does not retry: the turn fails). */
export interface ScriptedFailure {
  type: 'fail';
  status: number;
  message: string;
}

/**
 * What the model says on one turn; a function sees the request it answers, and may hold its answer back (the turn
 * runs until its promise settles).
 */
export type ScriptedTurn =
  ScriptedBlock[] | ScriptedFailure | ((request: ChatRequest) => ScriptedBlock[] | Promise<ScriptedBlock[]>);

/**
 * A conversation the model plays: recognised by `marker` in its first user message (the prompt of a session,
 * or the prompt a subagent was started with), one scripted turn per assistant message already in the request.
 */
export interface ScriptedConversation {
  marker: string;
  turns: ScriptedTurn[];
}

export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export interface ChatRequest {
  model?: string;
  messages: ChatMessage[];
  tools?: { type: string; function: { name: string } }[];
  stream?: boolean;
}

export interface RecordedRequest {
  /** The conversation's marker, or undefined for a side call (titles). */
  conversation: string | undefined;
  /** Assistant messages already in the request: 0 on a conversation's first call. */
  turn: number;
  toolNames: string[];
  body: ChatRequest;
}

/** A `role: "tool"` message OpenCode sent: what the model read. */
export interface ToolResult {
  conversation: string | undefined;
  toolCallId: string;
  content: string;
}

export interface ScriptedModel {
  /** For the provider's `options.baseURL` (ends in /v1). */
  url: string;
  requests: RecordedRequest[];
  /** Plays another conversation from now on (a shared OpenCode runs one per test). */
  add(conversation: ScriptedConversation): void;
  toolResult(toolCallId: string): ToolResult | undefined;
  /** Model calls of a conversation so far. */
  calls(marker: string): number;
  close(): Promise<void>;
}

/** Said when a conversation has run out of script. */
export const DONE_TEXT = 'done';
const SIDE_CALL_TEXT = 'Scripted title';

/** The text of a message's content (a string, or text parts). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: unknown; text?: unknown }) =>
      (part.type === 'text' || part.type === undefined) && typeof part.text === 'string' ? part.text : '',
    )
    .join('\n');
}

/** The opencode.json fragment that makes this server OpenCode's model. */
export function providerConfig(url: string) {
  return {
    model: 'askaway/scripted',
    small_model: 'askaway/scripted',
    provider: {
      askaway: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Askaway e2e',
        options: { baseURL: url, apiKey: 'not-a-key' },
        models: { scripted: { name: 'Scripted', tool_call: true, limit: { context: 100_000, output: 4_000 } } },
      },
    },
  };
}

function chunk(id: string, model: string, delta: Record<string, unknown>, finish: string | null) {
  return {
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(finish ? { usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } } : {}),
  };
}

function sse(blocks: ScriptedBlock[], id: string, model: string): string {
  const out: unknown[] = [chunk(id, model, { role: 'assistant', content: '' }, null)];
  let index = 0;
  for (const block of blocks) {
    if (block.type === 'text') {
      out.push(chunk(id, model, { content: block.text }, null));
      continue;
    }
    const json = JSON.stringify(block.input);
    const cut = Math.floor(json.length / 2);
    const first = {
      index,
      id: block.id,
      type: 'function',
      function: { name: block.name, arguments: json.slice(0, cut) },
    };
    out.push(chunk(id, model, { tool_calls: [first] }, null));
    out.push(chunk(id, model, { tool_calls: [{ index, function: { arguments: json.slice(cut) } }] }, null));
    index += 1;
  }
  out.push(chunk(id, model, {}, index > 0 ? 'tool_calls' : 'stop'));
  return `${out.map((data) => `data: ${JSON.stringify(data)}\n\n`).join('')}data: [DONE]\n\n`;
}

export async function startScriptedModel(initial: ScriptedConversation[] = []): Promise<ScriptedModel> {
  const conversations = [...initial];
  const requests: RecordedRequest[] = [];
  let counter = 0;

  const classify = (body: ChatRequest): Pick<RecordedRequest, 'conversation' | 'turn'> => {
    const firstUser = body.messages.find((message) => message.role === 'user');
    const text = firstUser ? textOf(firstUser.content) : '';
    // Side calls (titles) quote the prompt but carry no tools. The longest marker wins (prefix-free is safer).
    const found =
      (body.tools ?? []).length > 0
        ? conversations
            .filter((conversation) => text.includes(conversation.marker))
            .sort((a, b) => b.marker.length - a.marker.length)[0]
        : undefined;
    return {
      conversation: found?.marker,
      turn: body.messages.filter((message) => message.role === 'assistant').length,
    };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (part: Buffer) => chunks.push(part));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      let body: ChatRequest;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as ChatRequest;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"bad json"}}');
        return;
      }
      if (url.pathname !== '/v1/chat/completions' || !Array.isArray(body.messages)) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: url.pathname } }));
        return;
      }
      const { conversation, turn } = classify(body);
      requests.push({ conversation, turn, toolNames: (body.tools ?? []).map((tool) => tool.function.name), body });
      const scripted = conversations.find((candidate) => candidate.marker === conversation)?.turns[turn];
      if (scripted !== undefined && !Array.isArray(scripted) && typeof scripted !== 'function') {
        res
          .writeHead(scripted.status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: scripted.message, type: 'invalid_request_error' } }));
        return;
      }
      const answer: ScriptedBlock[] | Promise<ScriptedBlock[]> =
        conversation === undefined
          ? [{ type: 'text', text: SIDE_CALL_TEXT }]
          : scripted === undefined
            ? [{ type: 'text', text: DONE_TEXT }]
            : typeof scripted === 'function'
              ? scripted(body)
              : scripted;
      counter += 1;
      const id = `chatcmpl-e2e-${counter}`;
      void Promise.resolve(answer).then((blocks) => {
        // OpenCode may have given up on a held call (an abort): nothing to answer then.
        if (res.destroyed) return;
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.end(sse(blocks, id, body.model ?? 'scripted'));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const toolResults = (): ToolResult[] => {
    const seen = new Map<string, ToolResult>();
    for (const request of requests)
      for (const message of request.body.messages)
        if (message.role === 'tool' && typeof message.tool_call_id === 'string' && !seen.has(message.tool_call_id))
          seen.set(message.tool_call_id, {
            conversation: request.conversation,
            toolCallId: message.tool_call_id,
            content: textOf(message.content),
          });
    return [...seen.values()];
  };

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    add: (conversation) => conversations.push(conversation),
    toolResult: (toolCallId) => toolResults().find((result) => result.toolCallId === toolCallId),
    calls: (marker) => requests.filter((request) => request.conversation === marker).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

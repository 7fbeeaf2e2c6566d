import http from 'node:http';
import { type AddressInfo } from 'node:net';

/**
 * A scripted stand-in for the OpenAI Responses API (`POST /v1/responses`, streaming SSE) as Codex 0.171
 * reads it: `response.created`, then per item `response.output_item.added` / deltas / `.done` (only `.done`
 * items are acted on), then `response.completed` with `response.id`. Codex reaches it through a custom
 * model provider (codex-home.ts). Every request is recorded: `toolOutput(callId)` is what the model read.
 */

/** One output item the model sends. */
export type ScriptedItem =
  | { type: 'text'; text: string }
  /** A JSON function tool call: `request_user_input`, `exec_command`, an MCP tool in its namespace. */
  | { type: 'function_call'; name: string; arguments: unknown; callId?: string; namespace?: string }
  /** A freeform tool call: `apply_patch` takes the raw patch. */
  | { type: 'custom_tool_call'; name: string; input: string; callId?: string }
  /** Client-executed tool search: how the model finds MCP tools (Codex defers them behind it). */
  | { type: 'tool_search_call'; query: string; callId?: string }
  /** The call fails: `response.failed` with this error (Codex fails the turn; its retries are off). */
  | { type: 'fail'; message: string };

/**
 * What the model says on one call; a function sees the request it answers, and may hold the answer back
 * (a promise the test settles: a turn still running while the test does something else).
 */
export type ScriptedTurn = ScriptedItem[] | ((request: ResponsesRequest) => ScriptedItem[] | Promise<ScriptedItem[]>);

/**
 * A conversation, recognised by `marker` in the latest user message that carries one (so one thread can
 * play several conversations, one per prompt); one scripted turn per model call after that message.
 */
export interface ScriptedConversation {
  marker: string;
  turns: ScriptedTurn[];
}

export interface InputItem {
  type?: string;
  role?: string;
  content?: unknown;
  call_id?: string;
  output?: unknown;
  tools?: unknown;
  name?: string;
}

export interface ResponsesRequest {
  model?: string;
  input: InputItem[];
  tools?: ToolSpec[];
}

interface ToolSpec {
  type?: string;
  name?: string;
  tools?: ToolSpec[];
}

export interface RecordedRequest {
  conversation: string | undefined;
  turn: number;
  /** From the `x-codex-turn-metadata` header: `user` for the person's threads, `thread_title` for titles. */
  threadSource: string | undefined;
  threadId: string | undefined;
  body: ResponsesRequest;
}

/** A `function_call_output` / `custom_tool_call_output` Codex sent back: what the model really read. */
export interface ToolOutput {
  callId: string;
  /** The output as text (content items joined with newlines). */
  text: string;
}

export interface ScriptedModel {
  /** The provider's `base_url`. */
  url: string;
  requests: RecordedRequest[];
  toolOutputs(): ToolOutput[];
  toolOutput(callId: string): ToolOutput | undefined;
  /** The user messages the model read after `callId`'s output (a reason steered into the turn). */
  userTextsAfter(callId: string): string[];
  /** Whether a model call carried a user message holding `text` (a prompt the TUI sent). */
  sawUserText(text: string): boolean;
  close(): Promise<void>;
}

export const DONE_TEXT = 'done';
const SIDE_CALL_TEXT = 'OK';
const MODEL_OUTPUT_TYPES = new Set(['message', 'function_call', 'custom_tool_call', 'reasoning', 'tool_search_call']);

export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) =>
      typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string'
        ? (part as { text: string }).text
        : '',
    )
    .filter(Boolean)
    .join('\n');
}

const isModelOutput = (item: InputItem) =>
  item.type !== undefined &&
  MODEL_OUTPUT_TYPES.has(item.type) &&
  (item.type !== 'message' || item.role === 'assistant');

/** Model calls already made since a prompt: runs of consecutive model-output items (stateless: survives retries). */
function modelCalls(input: InputItem[]): number {
  let calls = 0;
  let inRun = false;
  for (const item of input) {
    const output = isModelOutput(item);
    if (output && !inRun) calls += 1;
    inRun = output;
  }
  return calls;
}

/** The tools Codex offered: top-level `tools`, plus namespaces a `tool_search_output` brought in. */
export function offeredTools(body: ResponsesRequest): string[] {
  const specs: ToolSpec[] = [...(body.tools ?? [])];
  for (const item of body.input)
    if (item.type === 'tool_search_output' && Array.isArray(item.tools)) specs.push(...(item.tools as ToolSpec[]));
  return specs.flatMap((spec) =>
    spec.type === 'namespace' && Array.isArray(spec.tools)
      ? spec.tools.map((tool) => `${spec.name}.${tool.name ?? ''}`)
      : [spec.name ?? spec.type ?? ''],
  );
}

function sse(events: Record<string, unknown>[]): string {
  return events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

function outputItem(
  scripted: Exclude<ScriptedItem, { type: 'fail' }>,
  id: string,
  callId: string,
): Record<string, unknown> {
  switch (scripted.type) {
    case 'text':
      return {
        type: 'message',
        id,
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: scripted.text, annotations: [] }],
      };
    case 'function_call':
      return {
        type: 'function_call',
        id,
        call_id: scripted.callId ?? callId,
        name: scripted.name,
        ...(scripted.namespace ? { namespace: scripted.namespace } : {}),
        arguments: typeof scripted.arguments === 'string' ? scripted.arguments : JSON.stringify(scripted.arguments),
        status: 'completed',
      };
    case 'custom_tool_call':
      return {
        type: 'custom_tool_call',
        id,
        call_id: scripted.callId ?? callId,
        name: scripted.name,
        input: scripted.input,
        status: 'completed',
      };
    case 'tool_search_call':
      return {
        type: 'tool_search_call',
        id,
        call_id: scripted.callId ?? callId,
        status: 'completed',
        execution: 'client',
        arguments: { query: scripted.query },
      };
  }
}

function stream(items: ScriptedItem[], responseId: string, model: string, callPrefix: string): string {
  const response = { id: responseId, object: 'response', status: 'in_progress', model, output: [] };
  const events: Record<string, unknown>[] = [
    { type: 'response.created', response },
    { type: 'response.in_progress', response },
  ];
  const failure = items.find((item) => item.type === 'fail');
  if (failure) {
    // `invalid_prompt` is an error Codex does not retry: the turn fails with this message.
    events.push({
      type: 'response.failed',
      response: { ...response, status: 'failed', error: { code: 'invalid_prompt', message: failure.message } },
    });
    return sse(events);
  }
  items.forEach((scripted, index) => {
    if (scripted.type === 'fail') return;
    const item = outputItem(scripted, `${responseId}_item${index}`, `${callPrefix}_${index}`);
    events.push({ type: 'response.output_item.added', output_index: index, item: { ...item, status: 'in_progress' } });
    if (scripted.type === 'text')
      events.push({ type: 'response.output_text.delta', item_id: item.id, output_index: index, delta: scripted.text });
    events.push({ type: 'response.output_item.done', output_index: index, item });
  });
  events.push({
    type: 'response.completed',
    response: {
      ...response,
      status: 'completed',
      usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
    },
  });
  return sse(events);
}

function turnMetadata(headers: http.IncomingHttpHeaders): { thread_source?: string; thread_id?: string } {
  const raw = headers['x-codex-turn-metadata'];
  try {
    return typeof raw === 'string' ? (JSON.parse(raw) as { thread_source?: string; thread_id?: string }) : {};
  } catch {
    return {};
  }
}

export async function startScriptedModel(conversations: ScriptedConversation[]): Promise<ScriptedModel> {
  const requests: RecordedRequest[] = [];
  let counter = 0;

  const classify = (body: ResponsesRequest, threadSource: string | undefined) => {
    // Title generation quotes the prompt and offers a tool: a side call, told apart by its thread source.
    if (threadSource !== undefined && threadSource !== 'user' && threadSource !== 'subagent')
      return { conversation: undefined, turn: 0 };
    for (let index = body.input.length - 1; index >= 0; index -= 1) {
      const item = body.input[index];
      if (item?.type !== 'message' || item.role !== 'user') continue;
      const text = textOf(item.content);
      const found = conversations.find((conversation) => text.includes(conversation.marker));
      if (found) return { conversation: found.marker, turn: modelCalls(body.input.slice(index + 1)) };
    }
    return { conversation: undefined, turn: 0 };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (req.method !== 'POST' || !url.pathname.endsWith('/responses')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      let body: ResponsesRequest;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ResponsesRequest;
        if (!Array.isArray(body.input)) throw new Error('no input');
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"bad request"}}');
        return;
      }
      const metadata = turnMetadata(req.headers);
      const { conversation, turn } = classify(body, metadata.thread_source);
      requests.push({ conversation, turn, threadSource: metadata.thread_source, threadId: metadata.thread_id, body });
      const scripted = conversations.find((candidate) => candidate.marker === conversation)?.turns[turn];
      const items: ScriptedItem[] | Promise<ScriptedItem[]> =
        conversation === undefined
          ? [{ type: 'text', text: SIDE_CALL_TEXT }]
          : scripted === undefined
            ? [{ type: 'text', text: DONE_TEXT }]
            : typeof scripted === 'function'
              ? scripted(body)
              : scripted;
      counter += 1;
      const responseId = `resp_e2e_${counter}`;
      // Call ids name the conversation and its turn: call_<marker>_t<turn>_<index>.
      const callPrefix = `call_${(conversation ?? 'side').replace(/[^A-Za-z0-9]/g, '')}_t${turn}`;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      // A held answer: Codex has sent the call and waits (its turn runs) until the test lets it go.
      void Promise.resolve(items).then(
        (ready) => res.end(stream(ready, responseId, body.model ?? 'e2e-model', callPrefix)),
        () => res.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const toolOutputs = (): ToolOutput[] => {
    const seen = new Map<string, ToolOutput>();
    for (const { body } of requests)
      for (const item of body.input)
        if (
          (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') &&
          typeof item.call_id === 'string' &&
          !seen.has(item.call_id)
        )
          seen.set(item.call_id, { callId: item.call_id, text: textOf(item.output) });
    return [...seen.values()];
  };

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    toolOutputs,
    toolOutput: (callId) => toolOutputs().find((output) => output.callId === callId),
    userTextsAfter(callId) {
      for (const { body } of [...requests].reverse()) {
        const at = body.input.findIndex((item) => item.call_id === callId && item.type?.endsWith('_output'));
        if (at === -1) continue;
        return body.input
          .slice(at + 1)
          .filter((item) => item.type === 'message' && item.role === 'user')
          .map((item) => textOf(item.content));
      }
      return [];
    },
    sawUserText: (text) =>
      requests.some(({ body }) =>
        body.input.some(
          (item) => item.type === 'message' && item.role === 'user' && textOf(item.content).includes(text),
        ),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

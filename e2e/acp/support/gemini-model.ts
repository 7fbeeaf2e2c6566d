// A scripted Gemini API on loopback for the real Gemini CLI (GOOGLE_GEMINI_BASE_URL): each prompt's first call
// gets the function call its script names, the call after the function's result gets a closing text; or a script
// only says something, says something and holds the stream open, or fails. Gemini CLI also asks a router model
// (`generateContent`) which model to use: it is told "flash".
import http from 'node:http';
import { type AddressInfo } from 'node:net';

/** `marker`: text in the user's prompt that picks the script. */
export type GeminiScript =
  /** A shell command's function call, then "Done: <marker>" once its result came. */
  | { marker: string; command: string }
  /** Only text, streamed in two parts. */
  | { marker: string; reply: string }
  /** Says `hold`, then keeps the stream open until the server closes (a turn to cancel). */
  | { marker: string; hold: string }
  /** An HTTP 400 with this message, as the Gemini API refuses a request. */
  | { marker: string; fail: string };

export interface ScriptedGemini {
  url: string;
  add(script: GeminiScript): void;
  /** The model calls whose prompt carried `marker`. */
  calls(marker: string): number;
  /** The function results Gemini sent back for a script, in order (what the model read). */
  results(marker: string): unknown[];
  close(): Promise<void>;
}

interface Part {
  text?: string;
  thought?: boolean;
  functionResponse?: { name?: string; response?: unknown };
}

const sse = (parts: unknown[], finishReason: string | null = 'STOP') =>
  `data: ${JSON.stringify({
    candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}), index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
  })}\r\n\r\n`;

/** The text of the last user content that has any: the prompt being answered (a function result has none). */
function lastPrompt(contents: { role?: string; parts?: Part[] }[]): string {
  for (const content of [...contents].reverse()) {
    if (content.role !== 'user') continue;
    const text = (content.parts ?? []).map((part) => (part.thought ? '' : (part.text ?? ''))).join('');
    if (text !== '') return text;
  }
  return '';
}

export async function startScriptedGemini(): Promise<ScriptedGemini> {
  const scripts: GeminiScript[] = [];
  const results = new Map<string, unknown[]>();
  const calls = new Map<string, number>();
  const held = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (!request.url?.includes(':streamGenerateContent')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            candidates: [
              {
                content: { role: 'model', parts: [{ text: '{"reasoning":"scripted","model_choice":"flash"}' }] },
                finishReason: 'STOP',
                index: 0,
              },
            ],
          }),
        );
        return;
      }
      const contents = (JSON.parse(body) as { contents?: { role?: string; parts?: Part[] }[] }).contents ?? [];
      const all = JSON.stringify(contents);
      // The prompt being answered picks the script; a session's earlier prompts are in its history too.
      const prompt = lastPrompt(contents);
      const script =
        scripts.find((candidate) => prompt.includes(candidate.marker)) ??
        scripts.find((candidate) => all.includes(candidate.marker));
      const last = contents.at(-1)?.parts ?? [];
      const answered = last.find((part) => part.functionResponse !== undefined);
      if (script) calls.set(script.marker, (calls.get(script.marker) ?? 0) + 1);
      if (script && 'fail' in script) {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { code: 400, message: script.fail, status: 'INVALID_ARGUMENT' } }));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (!script) {
        response.end(sse([{ text: 'No script for this prompt.' }]));
        return;
      }
      if ('reply' in script) {
        const cut = Math.floor(script.reply.length / 2);
        response.write(sse([{ text: script.reply.slice(0, cut) }], null));
        response.end(sse([{ text: script.reply.slice(cut) }]));
        return;
      }
      if ('hold' in script) {
        response.write(sse([{ text: script.hold }], null));
        held.add(response);
        response.once('close', () => held.delete(response));
        return;
      }
      if (answered) {
        results.set(script.marker, [...(results.get(script.marker) ?? []), answered.functionResponse?.response]);
        response.end(sse([{ text: `Done: ${script.marker}` }]));
        return;
      }
      response.end(
        sse([
          {
            functionCall: { name: 'run_shell_command', args: { command: script.command, description: script.marker } },
          },
        ]),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    add: (script) => scripts.push(script),
    calls: (marker) => calls.get(marker) ?? 0,
    results: (marker) => results.get(marker) ?? [],
    close: () =>
      new Promise((resolve) => {
        for (const response of held) response.destroy();
        server.close(() => resolve());
      }),
  };
}

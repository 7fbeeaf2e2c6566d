// A scripted Gemini API on loopback for the real Gemini CLI (GOOGLE_GEMINI_BASE_URL): each prompt's first call
// gets the function call its script names, the call after the function's result gets a closing text. Gemini
// CLI also asks a router model (`generateContent`) which model to use: it is told "flash".
import http from 'node:http';
import { type AddressInfo } from 'node:net';

export interface GeminiScript {
  /** Text in the user's prompt that picks this script. */
  marker: string;
  command: string;
}

export interface ScriptedGemini {
  url: string;
  add(script: GeminiScript): void;
  /** The function results Gemini sent back for a script, in order (what the model read). */
  results(marker: string): unknown[];
  close(): Promise<void>;
}

interface Part {
  text?: string;
  functionResponse?: { name?: string; response?: unknown };
}

const sse = (parts: unknown[]) =>
  `data: ${JSON.stringify({
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
  })}\r\n\r\n`;

export async function startScriptedGemini(): Promise<ScriptedGemini> {
  const scripts: GeminiScript[] = [];
  const results = new Map<string, unknown[]>();
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
      const script = scripts.find((candidate) => all.includes(candidate.marker));
      const last = contents.at(-1)?.parts ?? [];
      const answered = last.find((part) => part.functionResponse !== undefined);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (!script) {
        response.end(sse([{ text: 'No script for this prompt.' }]));
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
    results: (marker) => results.get(marker) ?? [],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

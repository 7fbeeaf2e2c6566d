import http from 'node:http';
import { type AddressInfo } from 'node:net';

/**
 * In front of the scripted model: a call whose last user message holds `failOn` gets HTTP 400 with `message` (what
 * a provider answers a request it refuses; Copilot 1.0.102 does not retry it and ends the turn with
 * `session.error`), every other call goes on to `upstream` unchanged.
 */
export interface FailingModel {
  /** For COPILOT_PROVIDER_BASE_URL (ends in /v1, like the upstream's). */
  url: string;
  /** Calls refused so far. */
  refused: number;
  close(): Promise<void>;
}

interface Message {
  role?: unknown;
  content?: unknown;
}

function lastUserText(body: string): string {
  try {
    const parsed = JSON.parse(body) as { messages?: Message[] };
    const users = (parsed.messages ?? []).filter((message) => message.role === 'user');
    const content = users.at(-1)?.content;
    if (typeof content === 'string') return content;
    return Array.isArray(content) ? JSON.stringify(content) : '';
  } catch {
    return '';
  }
}

export async function startFailingModel(upstream: string, failOn: string, message: string): Promise<FailingModel> {
  const target = new URL(upstream);
  const model: FailingModel = {
    url: '',
    refused: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (lastUserText(body.toString('utf8')).includes(failOn)) {
        model.refused += 1;
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message, type: 'invalid_request_error' } }));
        return;
      }
      const forward = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host, 'content-length': String(body.length) },
        },
        (upstreamRes) => {
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
          upstreamRes.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  model.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return model;
}

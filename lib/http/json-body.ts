import { type IncomingMessage } from 'node:http';
import { jsonShapeProblem, MESSAGE_SHAPE_LIMITS } from '../contracts';

/** Reads a JSON request body of at most `limitBytes` (R12.3); rejects with a message fit for a 4xx reply. */
export async function readJsonBody(req: IncomingMessage, limitBytes: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limitBytes) throw new Error(`Body larger than ${limitBytes} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > limitBytes) {
      req.destroy();
      throw new Error(`Body larger than ${limitBytes} bytes`);
    }
    chunks.push(buffer);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new Error('Body is not valid JSON');
  }
  // Before any schema or JSON.stringify walks it (R12.3), as for socket messages.
  const problem = jsonShapeProblem(body, MESSAGE_SHAPE_LIMITS);
  if (problem !== undefined) throw new Error(`Body ${problem}`);
  return body;
}

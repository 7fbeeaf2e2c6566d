import { type IncomingMessage, type ServerResponse } from 'node:http';
import * as z from 'zod/mini';
import { readJsonBody } from '../http/json-body';
import { summarizeIssues } from '../sockets/handshake';
import { sendApiError as fail } from './api-replies';
import { type AttemptLimiter } from './attempt-limiter';

/** A code exchange's body: a code, a name and little else. */
const MAX_BODY_BYTES = 4 * 1024;

/**
 * Reads the body of a one-time-code exchange (pairing a device, joining a machine; R16.3, R17.1):
 * refused while the address is over its limit of failed attempts, and an unreadable or invalid body
 * counts as one. Undefined: the refusal has been sent (with `headers`).
 */
export async function readCodeExchange<Schema extends z.core.$ZodType>(
  req: IncomingMessage,
  res: ServerResponse,
  options: { limiter: AttemptLimiter; schema: Schema; what: 'pairing' | 'join'; headers?: Record<string, string> },
): Promise<{ data: z.output<Schema>; address: string } | undefined> {
  const headers = options.headers ?? {};
  const address = req.socket.remoteAddress ?? 'unknown';
  if (!options.limiter.allows(address)) {
    fail(res, 429, 'rate-limited', `Too many ${options.what} attempts; wait a minute and try again`, {
      ...headers,
      'Retry-After': '60',
    });
    return undefined;
  }
  let body: unknown;
  try {
    body = await readJsonBody(req, MAX_BODY_BYTES);
  } catch (error) {
    options.limiter.fail(address);
    fail(res, 400, 'invalid-request', error instanceof Error ? error.message : 'Invalid body', headers);
    return undefined;
  }
  const parsed = z.safeParse(options.schema, body);
  if (!parsed.success) {
    options.limiter.fail(address);
    fail(res, 400, 'invalid-request', `Invalid ${options.what} request: ${summarizeIssues(parsed.error)}`, headers);
    return undefined;
  }
  return { data: parsed.data, address };
}

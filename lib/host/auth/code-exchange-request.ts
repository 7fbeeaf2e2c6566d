import { type IncomingMessage, type ServerResponse } from 'node:http';
import * as z from 'zod/mini';
import { type ApiErrorCode } from '../../contracts';
import { readJsonBody } from '../../http/json-body';
import { summarizeIssues } from '../sockets/handshake';
import { sendApiError as fail } from './api-replies';
import { type ClientAddressOf } from '../http/client-address';
import { type AttemptLimiter } from './attempt-limiter';

/** A code exchange's body: a code, a name and little else. */
const MAX_BODY_BYTES = 4 * 1024;

type What = 'pairing' | 'join';

/**
 * Reads the body of a one-time-code exchange (pairing a device, joining a machine; R16.3, R17.1). It is
 * always read, whatever the limit says, so a valid code is never refused; an unreadable or invalid body
 * counts as a failed attempt. Undefined: the refusal has been sent (with `headers`).
 */
export async function readCodeExchange<Schema extends z.core.$ZodType>(
  req: IncomingMessage,
  res: ServerResponse,
  options: {
    limiter: AttemptLimiter;
    clientAddress: ClientAddressOf;
    schema: Schema;
    what: What;
    headers?: Record<string, string>;
  },
): Promise<{ data: z.output<Schema>; address: string } | undefined> {
  const address = options.clientAddress(req);
  let body: unknown;
  try {
    body = await readJsonBody(req, MAX_BODY_BYTES);
  } catch (error) {
    const message = error instanceof Error ? error.message : 'Invalid body';
    await refuseAttempt(res, { ...options, address, status: 400, code: 'invalid-request', message });
    return undefined;
  }
  const parsed = z.safeParse(options.schema, body);
  if (!parsed.success) {
    const message = `Invalid ${options.what} request: ${summarizeIssues(parsed.error)}`;
    await refuseAttempt(res, { ...options, address, status: 400, code: 'invalid-request', message });
    return undefined;
  }
  return { data: parsed.data, address };
}

/**
 * A failed attempt: counted, and answered with its reason; past the limit (R16.3) answered 429 instead,
 * after a pause, so a guessing loop gets slower and learns nothing more.
 */
export async function refuseAttempt(
  res: ServerResponse,
  refusal: {
    limiter: AttemptLimiter;
    address: string;
    what: What;
    status: number;
    code: ApiErrorCode;
    message: string;
    headers?: Record<string, string>;
  },
): Promise<void> {
  const headers = refusal.headers ?? {};
  if (!(await refusal.limiter.fail(refusal.address))) {
    fail(res, refusal.status, refusal.code, refusal.message, headers);
    return;
  }
  await refusal.limiter.pause();
  fail(res, 429, 'rate-limited', `Too many failed ${refusal.what} attempts; wait a minute and try again`, {
    ...headers,
    'Retry-After': '60',
  });
}

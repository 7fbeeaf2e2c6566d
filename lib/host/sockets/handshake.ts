import { createHash, timingSafeEqual } from 'node:crypto';
import { type IncomingMessage } from 'node:http';
import { type Socket } from 'socket.io';
import * as z from 'zod/mini';
import { isRecord, PROTOCOL_VERSION, type ErrorCode, type WireError } from '../../contracts';

/** Constant-time token check: hashing first makes the compare independent of length too. */
export function tokensEqual(candidate: string | undefined, expected: string): boolean {
  if (typeof candidate !== 'string') return false;
  const a = createHash('sha256').update(candidate).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** socket.io puts `data` on the client's `connect_error` (ConnectErrorDataSchema). */
export function connectError(code: ErrorCode, message: string): Error & { data: WireError } {
  return Object.assign(new Error(message), { data: { code, message } });
}

/**
 * Namespace middleware: token first (so nothing else is revealed to strangers),
 * then the protocol version with a reason a person can act on, then the schema.
 */
export function handshakeGuard<Schema extends z.core.$ZodType>(
  schema: Schema,
  token: string,
  store: (socket: Socket, auth: z.infer<Schema>) => void,
) {
  return (socket: Socket, next: (error?: Error) => void): void => {
    const auth: unknown = socket.handshake.auth;
    const record = isRecord(auth) ? auth : {};
    const candidate = typeof record.token === 'string' ? record.token : undefined;
    if (!tokensEqual(candidate, token)) {
      next(connectError('unauthorized', 'Missing or wrong token: open the pairing link printed by `askaway start`'));
      return;
    }
    if (record.protocolVersion !== PROTOCOL_VERSION) {
      next(
        connectError(
          'protocol-mismatch',
          `This host speaks protocol ${PROTOCOL_VERSION}, the client sent ${JSON.stringify(record.protocolVersion) ?? 'none'}: update the older side`,
        ),
      );
      return;
    }
    const parsed = z.safeParse(schema, auth);
    if (!parsed.success) {
      next(connectError('invalid-message', `Invalid handshake auth: ${summarizeIssues(parsed.error)}`));
      return;
    }
    store(socket, parsed.data);
    next();
  };
}

/** Browser origins allowed to connect: same origin, the public URL, and any configured extras. */
export function originAllowed(req: IncomingMessage, secure: boolean, extraOrigins: readonly string[]): boolean {
  const origin = req.headers.origin;
  // Non-browser clients send no Origin; they still need the token.
  if (origin === undefined) return true;
  const host = req.headers.host;
  if (host !== undefined && origin === `${secure ? 'https' : 'http'}://${host}`) return true;
  return extraOrigins.includes(origin);
}

export function summarizeIssues(error: z.core.$ZodError): string {
  const text = error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}

import { type IncomingMessage } from 'node:http';
import { type Socket } from 'socket.io';
import * as z from 'zod/mini';
import { isRecord, jsonShapeProblem, MESSAGE_SHAPE_LIMITS, type ErrorCode, type WireError } from '../../contracts';
import { type AuthResult, type Principal } from '../auth/principal';

/** socket.io puts `data` on the client's `connect_error` (ConnectErrorDataSchema). */
export function connectError(code: ErrorCode, message: string): Error & { data: WireError } {
  return Object.assign(new Error(message), { data: { code, message } });
}

/**
 * Namespace middleware: the credential first (so nothing else is revealed to strangers, and
 * one offered in the wrong place is named, R16.1), then the protocol version with a reason a
 * person can act on, then the schema.
 */
export function handshakeGuard<Schema extends z.core.$ZodType>(options: {
  schema: Schema;
  protocolVersion: number;
  /** The auth fields a credential may sit in, in order (`token`, or a remote's `credential`). */
  credentialFields: readonly string[];
  authenticate(candidate: string | undefined): Promise<AuthResult>;
  store(socket: Socket, auth: z.infer<Schema>, principal: Principal): void;
  onError(error: unknown): void;
}) {
  const admit = async (socket: Socket, next: (error?: Error) => void): Promise<void> => {
    const auth: unknown = socket.handshake.auth;
    const shape = jsonShapeProblem(auth, MESSAGE_SHAPE_LIMITS);
    if (shape !== undefined) {
      next(connectError('invalid-message', `Invalid handshake auth: it ${shape}`));
      return;
    }
    const record = isRecord(auth) ? auth : {};
    const field = options.credentialFields.find((name) => typeof record[name] === 'string');
    const candidate = field === undefined ? undefined : String(record[field]);
    const result = await options.authenticate(candidate);
    if (!result.ok) {
      next(connectError(result.code, result.message));
      return;
    }
    if (record.protocolVersion !== options.protocolVersion) {
      next(
        connectError(
          'protocol-mismatch',
          `This host speaks protocol ${options.protocolVersion}, the client sent ${JSON.stringify(record.protocolVersion) ?? 'none'}: update the older side`,
        ),
      );
      return;
    }
    const parsed = z.safeParse(options.schema, auth);
    if (!parsed.success) {
      next(connectError('invalid-message', `Invalid handshake auth: ${summarizeIssues(parsed.error)}`));
      return;
    }
    options.store(socket, parsed.data, result.principal);
    next();
  };
  // A credential check reads the store: whatever it throws refuses this connection, never the host.
  return (socket: Socket, next: (error?: Error) => void): void => {
    admit(socket, next).catch((error: unknown) => {
      options.onError(error);
      next(connectError('internal', 'The host could not check this connection; try again'));
    });
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

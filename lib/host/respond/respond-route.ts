import { type IncomingMessage } from 'node:http';
import {
  errorMessage,
  MAX_MESSAGE_BYTES,
  RESPOND_API_PATH,
  RespondCommandSchema,
  type DeviceRespondReply,
  type ErrorCode,
  type RespondAck,
} from '../../contracts';
import { type AuditTrail } from '../audit/audit-trail';
import { type DeviceService } from '../auth/devices';
import { type ClientAddressOf } from '../http/client-address';
import { type AuthResult } from '../auth/principal';
import { sendJson } from '../../http/http-replies';
import { readJsonBody } from '../../http/json-body';
import { type HttpRouteHandler } from '../http/routes';
import { type InteractionRegistry } from '../registry';
import { summarizeIssues } from '../sockets/handshake';
import { TokenBucket, type RateLimit } from '../sockets/token-bucket';
import { respondAsDevice } from './device-respond';

/** A device's answers from its notifications: a person pressing buttons, never a flood. */
export const DEFAULT_RESPOND_RATE_LIMIT: RateLimit = { capacity: 20, refillPerSecond: 2 };
/** Requests that name no known device, all together: no credential is guessable, but each one costs a lookup. */
const REFUSED_RATE_LIMIT: RateLimit = { capacity: 50, refillPerSecond: 10 };

export interface RespondRouteOptions {
  registry: InteractionRegistry;
  devices: Pick<DeviceService, 'nameOf'>;
  /** A paired device's credential only (R16.1), as the remote namespace's handshake checks it. */
  authenticate(candidate: string | undefined): Promise<AuthResult>;
  /** The sockets' rule: same origin, the public URL, `--allow-origin`; a request without Origin is no browser's. */
  originAllowed(req: IncomingMessage): boolean;
  rateLimit?: RateLimit;
  /** A team hub's record of each answer and refused attempt, with the request's address (R21.61, R21.62). */
  audit?: { trail: AuditTrail; clientAddress: ClientAddressOf };
}

/**
 * `POST /api/respond` (R14.10): the answer a notification's button sends from the service worker, which cannot
 * run socket.io. `Authorization: Bearer <device credential>`, a RespondCommand as a JSON body; the reply carries
 * the socket's `respond` ack exactly, from the same path (./device-respond.ts). Refusals are acks too, with the
 * socket's error codes, so the worker reads one shape whatever happened.
 */
export function createRespondRoute(options: RespondRouteOptions): HttpRouteHandler {
  const buckets = new Map<string, TokenBucket>();
  const limit = options.rateLimit ?? DEFAULT_RESPOND_RATE_LIMIT;
  const refused = new TokenBucket(REFUSED_RATE_LIMIT.capacity, REFUSED_RATE_LIMIT.refillPerSecond);
  return async (req, res, context) => {
    const origin = req.headers.origin;
    const cors: Record<string, string> =
      origin === undefined ? {} : { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
    const reply = (status: number, ack: RespondAck, extra: Partial<DeviceRespondReply> = {}, headers = {}) =>
      sendJson(res, status, { ack, ...extra } satisfies DeviceRespondReply, { ...cors, ...headers });
    const fail = (status: number, code: ErrorCode, message: string, headers: Record<string, string> = {}) =>
      reply(status, { ok: false, error: { code, message } }, {}, headers);

    if (context.pathname !== RESPOND_API_PATH) return fail(404, 'invalid-message', `Answers go to ${RESPOND_API_PATH}`);
    if (origin !== undefined && !options.originAllowed(req)) {
      delete cors['Access-Control-Allow-Origin'];
      return fail(403, 'unauthorized', `Answers from ${origin} are not allowed (start the host with --allow-origin)`);
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        ...cors,
        'Access-Control-Allow-Methods': 'POST',
        'Access-Control-Allow-Headers': 'Authorization, Content-Type',
        'Access-Control-Max-Age': '600',
      });
      res.end();
      return;
    }
    if (req.method !== 'POST')
      return fail(405, 'invalid-message', `Answering is POST ${RESPOND_API_PATH}`, { Allow: 'POST' });
    const auth = await options.authenticate(context.bearerToken());
    if (!auth.ok) {
      if (!refused.take()) return fail(429, 'rate-limited', 'Too many refused answers; try again shortly');
      return fail(401, auth.code, auth.message, { 'WWW-Authenticate': 'Bearer realm="askaway-device"' });
    }
    const deviceId = auth.principal.id;
    let bucket = buckets.get(deviceId);
    if (!bucket) buckets.set(deviceId, (bucket = new TokenBucket(limit.capacity, limit.refillPerSecond)));
    if (!bucket.take()) return fail(429, 'rate-limited', 'Too many answers at once; try again shortly');
    if (!/^application\/json(;|$)/i.test(req.headers['content-type'] ?? ''))
      return fail(415, 'invalid-message', 'An answer is JSON (Content-Type: application/json)');
    let body: unknown;
    try {
      body = await readJsonBody(req, MAX_MESSAGE_BYTES);
    } catch (error) {
      const message = errorMessage(error);
      const tooLarge = message.startsWith('Body larger');
      return fail(tooLarge ? 413 : 400, tooLarge ? 'payload-too-large' : 'invalid-message', message);
    }
    const command = RespondCommandSchema.safeParse(body);
    if (!command.success) return fail(400, 'invalid-message', summarizeIssues(command.error));
    const { audit } = options;
    const ack = await respondAsDevice(
      options.registry,
      options.devices,
      deviceId,
      command.data,
      audit && { trail: audit.trail, address: audit.clientAddress(req), via: 'notification' },
    );
    const view = options.registry.projection.get(command.data.requestId);
    const terminal = !ack.ok && ack.error.code === 'withdrawn' && view?.terminalAnswer !== undefined;
    reply(
      ack.ok || ack.error.code !== 'storage-unavailable' ? 200 : 503,
      ack,
      terminal ? { answeredInTerminal: true } : {},
    );
  };
}

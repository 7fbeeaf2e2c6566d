import { type IncomingMessage } from 'node:http';
import { ME_API_PATH, type MeResponse } from '../../contracts';
import { sendJson } from '../../http/http-replies';
import { sendApiError as fail } from '../auth/api-replies';
import { type DeviceService } from '../auth/devices';
import { type AuthResult } from '../auth/principal';
import { corsHeadersOrRefuse } from '../http/cors';
import { type HttpRouteHandler } from '../http/routes';
import { TokenBucket, type RateLimit } from '../sockets/token-bucket';

/** Requests that name no known device, all together: no credential is guessable, but each one costs a lookup. */
const REFUSED_RATE_LIMIT: RateLimit = { capacity: 50, refillPerSecond: 10 };

export interface MeRouteOptions {
  devices: Pick<DeviceService, 'get'>;
  /** A paired device's credential only (R16.1), as the remote namespace's handshake checks it. */
  authenticate(candidate: string | undefined): Promise<AuthResult>;
  /** The sockets' rule: same origin, the public URL, `--allow-origin`. */
  originAllowed(req: IncomingMessage): boolean;
}

/**
 * `GET /api/me` with `Authorization: Bearer <device credential>` → `{deviceId, person}` (R21.31): whose this device
 * is, for Settings' "Signed in as …". Only the calling device's own person, only to that device: the rest of the
 * people stay on the hub (R21.13). A device paired with a pairing link, or any device of a hub without sign-in,
 * gets `person: null`.
 */
export function createMeRoute(options: MeRouteOptions): HttpRouteHandler {
  const refused = new TokenBucket(REFUSED_RATE_LIMIT.capacity, REFUSED_RATE_LIMIT.refillPerSecond);
  return async (req, res, context) => {
    if (context.pathname !== ME_API_PATH) return fail(res, 404, 'not-found', `Not found: ${context.pathname}`);
    const cors = corsHeadersOrRefuse(req, res, options.originAllowed);
    if (!cors) return;
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        ...cors,
        'Access-Control-Allow-Methods': 'GET',
        'Access-Control-Allow-Headers': 'Authorization',
        'Access-Control-Max-Age': '600',
      });
      res.end();
      return;
    }
    if (req.method !== 'GET')
      return fail(res, 405, 'invalid-request', `This is GET ${ME_API_PATH}`, { ...cors, Allow: 'GET, OPTIONS' });
    const auth = await options.authenticate(context.bearerToken());
    if (!auth.ok) {
      if (!refused.take()) return fail(res, 429, 'rate-limited', 'Too many refused requests; try again shortly', cors);
      return fail(res, 401, 'unauthorized', auth.message, {
        ...cors,
        'WWW-Authenticate': 'Bearer realm="askaway-device"',
      });
    }
    const device = options.devices.get(auth.principal.id);
    if (!device) return fail(res, 401, 'unauthorized', 'This device was removed from this hub. Pair again.', cors);
    const me: MeResponse = { deviceId: device.id, person: device.person ?? null };
    sendJson(res, 200, me, cors);
  };
}

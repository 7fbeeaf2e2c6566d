import { type IncomingMessage, type ServerResponse } from 'node:http';
import { sendApiError as fail } from '../auth/api-replies';
import { type AuthResult } from '../auth/principal';
import { TokenBucket, type RateLimit } from '../sockets/token-bucket';
import { corsHeadersOrRefuse } from './cors';
import { type HttpRouteContext } from './routes';

/** Requests that name no known device, all together: no credential is guessable, but each one costs a lookup. */
const REFUSED_RATE_LIMIT: RateLimit = { capacity: 50, refillPerSecond: 10 };

export interface DeviceRequestOptions {
  /** A paired device's credential only (R16.1), as the remote namespace's handshake checks it. */
  authenticate(candidate: string | undefined): Promise<AuthResult>;
  /** The sockets' rule: same origin, the public URL, `--allow-origin`. */
  originAllowed(req: IncomingMessage): boolean;
}

/** What one route takes: its method, the headers a preflight may ask for, and the `Allow` a wrong method gets. */
export interface DeviceRequestShape {
  method: 'GET' | 'POST';
  allowHeaders: string;
  allow: string;
}

/** A GET that carries only the bearer credential (`GET /api/me`, `GET /api/team/audit`). */
export const BEARER_GET: DeviceRequestShape = { method: 'GET', allowHeaders: 'Authorization', allow: 'GET, OPTIONS' };

/**
 * The start the app's device-credential routes share (`GET /api/me`, `/api/team…`, `GET /api/team/audit`): CORS or
 * its refusal, the preflight, the method, then the bearer credential, refused ones rate-limited together per route.
 * Resolves with the calling device and the CORS headers for the answer, or undefined once it has answered itself.
 */
export function deviceRequestGate(options: DeviceRequestOptions) {
  const refused = new TokenBucket(REFUSED_RATE_LIMIT.capacity, REFUSED_RATE_LIMIT.refillPerSecond);
  return async (
    req: IncomingMessage,
    res: ServerResponse,
    context: HttpRouteContext,
    shape: DeviceRequestShape,
  ): Promise<{ deviceId: string; cors: Record<string, string> } | undefined> => {
    const cors = corsHeadersOrRefuse(req, res, options.originAllowed);
    if (!cors) return undefined;
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        ...cors,
        'Access-Control-Allow-Methods': shape.method,
        'Access-Control-Allow-Headers': shape.allowHeaders,
        'Access-Control-Max-Age': '600',
      });
      res.end();
      return undefined;
    }
    if (req.method !== shape.method) {
      fail(res, 405, 'invalid-request', `This is ${shape.method} ${context.pathname}`, { ...cors, Allow: shape.allow });
      return undefined;
    }
    const auth = await options.authenticate(context.bearerToken());
    if (!auth.ok) {
      if (!refused.take()) fail(res, 429, 'rate-limited', 'Too many refused requests; try again shortly', cors);
      else
        fail(res, 401, 'unauthorized', auth.message, { ...cors, 'WWW-Authenticate': 'Bearer realm="askaway-device"' });
      return undefined;
    }
    return { deviceId: auth.principal.id, cors };
  };
}

import { type IncomingMessage } from 'node:http';
import { HUB_API_PATH, type HubInfo } from '../../contracts';
import { sendJson } from '../../http/http-replies';
import { sendApiError as fail } from '../auth/api-replies';
import { corsHeadersOrRefuse } from '../http/cors';
import { type HttpRouteHandler } from '../http/routes';

export interface HubInfoRouteOptions {
  /** Where people sign in and at which provider; absent on a hub without one (R21.2). */
  signIn?: { path: string; issuer: string };
  /** The sockets' rule: same origin, the public URL, `--allow-origin`. */
  originAllowed(req: IncomingMessage): boolean;
}

/**
 * `GET /api/hub` → `{signIn}` (R21.30): what the app's unpaired screen needs to offer a sign-in, and nothing a
 * stranger at the hub's address may not know: the sign-in path and the provider's host, never its client id,
 * secret or full issuer URL.
 */
export function createHubInfoRoute(options: HubInfoRouteOptions): HttpRouteHandler {
  const info: HubInfo = {
    signIn: options.signIn ? { path: options.signIn.path, provider: new URL(options.signIn.issuer).host } : null,
  };
  return (req, res, context) => {
    if (context.pathname !== HUB_API_PATH) return fail(res, 404, 'not-found', `Not found: ${context.pathname}`);
    const cors = corsHeadersOrRefuse(req, res, options.originAllowed);
    if (!cors) return;
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return fail(res, 405, 'invalid-request', `This is GET ${HUB_API_PATH}`, { ...cors, Allow: 'GET, HEAD' });
    sendJson(res, 200, info, cors);
  };
}

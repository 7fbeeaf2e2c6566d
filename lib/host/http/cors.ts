import { type IncomingMessage, type ServerResponse } from 'node:http';
import { sendApiError } from '../auth/api-replies';

/**
 * The CORS headers for an app page served elsewhere (`--allow-origin`) that may read this answer, `{}` for a
 * request without an Origin; undefined when the Origin is not allowed, after answering 403.
 */
export function corsHeadersOrRefuse(
  req: IncomingMessage,
  res: ServerResponse,
  originAllowed: (req: IncomingMessage) => boolean,
): Record<string, string> | undefined {
  const origin = req.headers.origin;
  if (origin === undefined) return {};
  if (!originAllowed(req)) {
    sendApiError(
      res,
      403,
      'origin-not-allowed',
      `Requests from ${origin} are not allowed (start the hub with --allow-origin)`,
    );
    return undefined;
  }
  return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
}

import { type AwayState } from '../../contracts';
import { sendJson } from '../../http/http-replies';
import { type HttpRouteHandler } from '../http/routes';
import { sendApiError as fail } from './api-replies';

/** Whether the person is away (R19.50), as the host's preferences say, and how it is switched. */
export interface AwaySwitch {
  get(): boolean;
  /** Records the change (one preferences event, synced to every phone); false when it could not be stored. */
  set(away: boolean): Promise<boolean>;
}

/**
 * `GET /api/agent/away` → `{away}` for an agent's hook (the agent token or a joined machine's credential): Claude
 * Code's Stop hook asks it before holding a finished turn for the phone (R19.50). Nothing else of the preferences.
 */
export function createAgentAwayRoute(away: AwaySwitch): HttpRouteHandler {
  return async (req, res, context) => {
    const auth = await context.authenticateAgent(context.bearerToken());
    if (!auth.ok) {
      const unauthorized = auth.code === 'unauthorized';
      fail(res, unauthorized ? 401 : 403, unauthorized ? 'unauthorized' : 'forbidden', auth.message, {
        'WWW-Authenticate': 'Bearer realm="askaway"',
      });
      return;
    }
    if (req.method !== 'GET') {
      fail(res, 405, 'invalid-request', 'away is GET', { Allow: 'GET' });
      return;
    }
    sendJson(res, 200, { away: away.get() } satisfies AwayState);
  };
}

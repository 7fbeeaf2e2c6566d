import { TEAM_AUDIT_API_PATH } from '../../contracts';
import { sendJson } from '../../http/http-replies';
import { sendApiError as fail } from '../auth/api-replies';
import { BEARER_GET, deviceRequestGate, type DeviceRequestOptions } from '../http/device-request';
import { type HttpRouteHandler } from '../http/routes';
import { AUDIT_PAGE_DEFAULT, AUDIT_PAGE_MAX, type AuditLog } from './audit-log';

export interface TeamAuditRouteOptions extends DeviceRequestOptions {
  /** Undefined on a hub without people: it keeps no record, and the path is not found. */
  auditLog: AuditLog | undefined;
  /** Whether this device may read the record: the owner's, admins' and the operator's devices (R21.67). */
  mayRead(deviceId: string): boolean;
}

/**
 * `GET /api/team/audit?before=<seq>&limit=<n>` (R21.67) with `Authorization: Bearer <device credential>` →
 * AuditPage, newest first: History's audit filter. Only an owner's, an admin's or the operator's device (paired with a
 * link from `askaway pair`) reads it; a member's gets 403,
 * and a hub without people 404. The same CORS and refused-credential limit as `GET /api/me`.
 */
export function createTeamAuditRoute(options: TeamAuditRouteOptions): HttpRouteHandler {
  const gate = deviceRequestGate(options);
  return async (req, res, context) => {
    const { auditLog } = options;
    if (context.pathname !== TEAM_AUDIT_API_PATH || !auditLog)
      return fail(
        res,
        404,
        'not-found',
        `Not found: ${context.pathname} (only a hub with people keeps an audit record)`,
      );
    const request = await gate(req, res, context, BEARER_GET);
    if (!request) return;
    const { deviceId, cors } = request;
    if (!options.mayRead(deviceId))
      return fail(res, 403, 'forbidden', "Only the hub's owner, admins and operator read its audit record", cors);
    const query = pageQuery(new URL(req.url ?? '/', 'http://hub').searchParams);
    if (typeof query === 'string') return fail(res, 400, 'invalid-request', query, cors);
    sendJson(res, 200, await auditLog.newest(query.before, query.limit), cors);
  };
}

/** `before` a positive seq (default: the newest), `limit` 1–200 (default 50); a string says what is wrong. */
function pageQuery(params: URLSearchParams): { before?: number; limit: number } | string {
  const before = params.get('before');
  const limit = params.get('limit');
  if (before !== null && !/^[1-9]\d{0,14}$/.test(before))
    return `before must be a seq (a whole number above 0), got ${JSON.stringify(before.slice(0, 40))}`;
  if (limit !== null && (!/^\d{1,3}$/.test(limit) || Number(limit) < 1 || Number(limit) > AUDIT_PAGE_MAX))
    return `limit must be a whole number from 1 to ${AUDIT_PAGE_MAX}, got ${JSON.stringify(limit.slice(0, 40))}`;
  return {
    ...(before !== null ? { before: Number(before) } : {}),
    limit: limit === null ? AUDIT_PAGE_DEFAULT : Number(limit),
  };
}

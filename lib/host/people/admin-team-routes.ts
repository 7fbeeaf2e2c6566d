import { ADMIN_API_PREFIX, GroupInputSchema, RoleChangeCommandSchema, type JoinCodeResponse } from '../../contracts';
import { sendJson } from '../../http/http-replies';
import { sendApiError as fail } from '../auth/api-replies';
import { type HttpRouteHandler } from '../http/routes';
import { readTeamBody } from './team-request-body';
import { type TeamActor, type TeamService } from './team-service';

const ROLE_PATH = new RegExp(`^${ADMIN_API_PREFIX}/people/([0-9a-f]{16})/role$`);
const GROUPS_PATH = `${ADMIN_API_PREFIX}/groups`;
const GROUP_PATH = new RegExp(`^${GROUPS_PATH}/([0-9a-f]{16})$`);
const GROUP_REMOVE_PATH = new RegExp(`^${GROUPS_PATH}/([0-9a-f]{16})/remove$`);
const GROUP_JOIN_CODE_PATH = new RegExp(`^${GROUPS_PATH}/([0-9a-f]{16})/join-codes$`);

const OPERATOR: TeamActor = { kind: 'operator' };

/**
 * The operator's side of roles and groups (R21.18, R21.19), behind the admin token like the rest of `/api/admin`
 * (the caller has checked it):
 *   POST /api/admin/people/<id>/role {role}   → {person}            (`askaway people role`)
 *   GET  /api/admin/groups                    → {groups}            (`askaway groups`)
 *   POST /api/admin/groups GroupInput         → {group}             (`askaway groups create`)
 *   POST /api/admin/groups/<id> GroupInput    → {group}             (`askaway groups set`)
 *   POST /api/admin/groups/<id>/remove        → {group}             (`askaway groups remove`)
 *   POST /api/admin/groups/<id>/join-codes    → JoinCodeResponse    (`askaway invite --for-group`)
 */
export function createAdminTeamRoutes(
  team: TeamService,
  mintJoinCode: () => Promise<JoinCodeResponse>,
): HttpRouteHandler {
  return async (req, res, context) => {
    const { pathname } = context;
    if (pathname === GROUPS_PATH && req.method === 'GET') {
      const view = team.view(OPERATOR);
      if ('ok' in view) return fail(res, view.status, view.code, view.message);
      return sendJson(res, 200, { groups: view.groups, people: view.people });
    }
    if (req.method !== 'POST') return fail(res, 405, 'invalid-request', `This is POST ${pathname}`, { Allow: 'POST' });
    const role = ROLE_PATH.exec(pathname)?.[1];
    if (role !== undefined) {
      const body = await readTeamBody(req, RoleChangeCommandSchema);
      if (!body.ok) return fail(res, body.status, 'invalid-request', body.message);
      const outcome = await team.changeRole(OPERATOR, role, body.data.role);
      return outcome.ok
        ? sendJson(res, 200, { person: outcome.person })
        : fail(res, outcome.status, outcome.code, outcome.message);
    }
    const joinFor = GROUP_JOIN_CODE_PATH.exec(pathname)?.[1];
    if (joinFor !== undefined) {
      const refusal = team.mayInviteFor(OPERATOR, joinFor);
      if (refusal) return fail(res, refusal.status, refusal.code, refusal.message);
      const minted = await mintJoinCode();
      // In the log before anyone sees the code, so whichever replica the machine joins through finds the grant.
      const refused = await team.groupJoinCodeMinted(OPERATOR, joinFor, minted.code);
      return refused ? fail(res, refused.status, refused.code, refused.message) : sendJson(res, 201, minted);
    }
    const remove = GROUP_REMOVE_PATH.exec(pathname)?.[1];
    if (remove !== undefined) {
      const outcome = await team.removeGroup(OPERATOR, remove);
      return outcome.ok
        ? sendJson(res, 200, { group: outcome.group })
        : fail(res, outcome.status, outcome.code, outcome.message);
    }
    const change = GROUP_PATH.exec(pathname)?.[1];
    if (change !== undefined || pathname === GROUPS_PATH) {
      const body = await readTeamBody(req, GroupInputSchema);
      if (!body.ok) return fail(res, body.status, 'invalid-request', body.message);
      const outcome = await team.saveGroup(OPERATOR, change, body.data);
      return outcome.ok
        ? sendJson(res, change ? 200 : 201, { group: outcome.group })
        : fail(res, outcome.status, outcome.code, outcome.message);
    }
    fail(res, 404, 'not-found', `Not found: ${req.method} ${pathname}`);
  };
}

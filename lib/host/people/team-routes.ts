import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type AuditBy, type AuditTrail } from '../audit/audit-trail';
import { type ClientAddressOf } from '../http/client-address';
import {
  GroupInputSchema,
  HandOverCommandSchema,
  RoleChangeCommandSchema,
  TEAM_API_PATH,
  TEAM_GROUPS_API_PATH,
  TEAM_HAND_OVER_API_PATH,
  TEAM_PEOPLE_API_PATH,
} from '../../contracts';
import { sendJson } from '../../http/http-replies';
import { sendApiError as fail } from '../auth/api-replies';
import { type DeviceService } from '../auth/devices';
import { type MachineService } from '../auth/machines';
import { deviceRequestGate, type DeviceRequestOptions } from '../http/device-request';
import { type HttpRouteHandler } from '../http/routes';
import { type PeopleService } from './people-service';
import { readTeamBody } from './team-request-body';
import { type TeamActor, type TeamRefusal, type TeamService } from './team-service';

const ROLE_PATH = new RegExp(`^${TEAM_PEOPLE_API_PATH}/([0-9a-f]{16})/role$`);
const REMOVE_PATH = new RegExp(`^${TEAM_PEOPLE_API_PATH}/([0-9a-f]{16})/remove$`);
const GROUP_PATH = new RegExp(`^${TEAM_GROUPS_API_PATH}/([0-9a-f]{16})$`);
const GROUP_REMOVE_PATH = new RegExp(`^${TEAM_GROUPS_API_PATH}/([0-9a-f]{16})/remove$`);

export interface TeamRoutesOptions extends DeviceRequestOptions {
  team: TeamService;
  people: PeopleService;
  devices: Pick<DeviceService, 'revoke'>;
  machines: Pick<MachineService, 'revoke'>;
  /** The client's address, for the audit record (R21.21). */
  clientAddress: ClientAddressOf;
  /** The team hub's audit record: removals from the app are recorded with their revocations (R21.60). */
  audit?: AuditTrail;
  onError(error: unknown): void;
}

/**
 * The app's team API (R21.19, R21.23, R21.24, lib/contracts/team-api.ts), with the device's credential as a bearer
 * token, like `GET /api/me`:
 *   GET  /api/team                      → TeamView
 *   POST /api/team/people/<id>/role     {role} → {person}
 *   POST /api/team/people/<id>/remove   → {person, devices, machines}
 *   POST /api/team/groups               GroupInput → {group}
 *   POST /api/team/groups/<id>          GroupInput → {group}
 *   POST /api/team/groups/<id>/remove   → {group}
 *   POST /api/team/hand-over            {requestId, toPersonId} → {to}
 * What a device may do is its person's role's, decided at the log's head (TeamService). Mounted only on a hub with
 * people; a hub without answers 404 with a message saying so (`createNoTeamRoute`).
 */
export function createTeamRoutes(options: TeamRoutesOptions): HttpRouteHandler {
  const gate = deviceRequestGate(options);
  return async (req, res, context) => {
    const { pathname } = context;
    const method = pathname === TEAM_API_PATH ? 'GET' : 'POST';
    const request = await gate(req, res, context, {
      method,
      allowHeaders: 'Authorization, Content-Type',
      allow: method,
    });
    if (!request) return;
    const { deviceId, cors } = request;
    const address = options.clientAddress(req);
    const actor: TeamActor = { kind: 'device', deviceId, address };
    const refuse = (refusal: TeamRefusal) => fail(res, refusal.status, refusal.code, refusal.message, cors);
    try {
      await route(req, res, pathname, actor, cors, refuse, { deviceId, address, via: 'app' });
    } catch (error) {
      options.onError(error);
      fail(res, 503, 'storage-unavailable', 'The hub could not record it (see its log); nothing changed', cors);
    }
  };

  async function route(
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    actor: TeamActor,
    cors: Record<string, string>,
    refuse: (refusal: TeamRefusal) => void,
    by: AuditBy,
  ): Promise<void> {
    const { team } = options;
    if (pathname === TEAM_API_PATH) {
      const view = team.view(actor);
      return 'ok' in view ? refuse(view) : sendJson(res, 200, view, cors);
    }
    const role = ROLE_PATH.exec(pathname)?.[1];
    if (role !== undefined) {
      const body = await readTeamBody(req, RoleChangeCommandSchema);
      if (!body.ok) return fail(res, body.status, 'invalid-request', body.message, cors);
      const outcome = await team.changeRole(actor, role, body.data.role);
      return outcome.ok ? sendJson(res, 200, { person: outcome.person }, cors) : refuse(outcome);
    }
    const remove = REMOVE_PATH.exec(pathname)?.[1];
    if (remove !== undefined) {
      const outcome = await options.people.revoke(
        remove,
        options,
        () => team.removalRefusal(actor, remove),
        options.audit?.removal(by),
      );
      if (outcome.ok) {
        const { person, devices, machines } = outcome;
        return sendJson(res, 200, { person, devices, machines }, cors);
      }
      if (outcome.reason === 'refused') return refuse(outcome.refusal);
      if (outcome.reason === 'owner')
        return fail(res, 409, 'conflict', 'The owner cannot be removed from the hub', cors);
      return fail(res, 404, 'not-found', `No person ${remove} on this hub`, cors);
    }
    if (pathname === TEAM_HAND_OVER_API_PATH) {
      const body = await readTeamBody(req, HandOverCommandSchema);
      if (!body.ok) return fail(res, body.status, 'invalid-request', body.message, cors);
      const outcome = await team.handOver(actor, body.data.requestId, body.data.toPersonId);
      return outcome.ok ? sendJson(res, 200, { to: outcome.to }, cors) : refuse(outcome);
    }
    const removeGroup = GROUP_REMOVE_PATH.exec(pathname)?.[1];
    if (removeGroup !== undefined) {
      const outcome = await team.removeGroup(actor, removeGroup);
      return outcome.ok ? sendJson(res, 200, { group: outcome.group }, cors) : refuse(outcome);
    }
    const changeGroup = GROUP_PATH.exec(pathname)?.[1];
    if (changeGroup !== undefined || pathname === TEAM_GROUPS_API_PATH) {
      const body = await readTeamBody(req, GroupInputSchema);
      if (!body.ok) return fail(res, body.status, 'invalid-request', body.message, cors);
      const outcome = await team.saveGroup(actor, changeGroup, body.data);
      return outcome.ok ? sendJson(res, changeGroup ? 200 : 201, { group: outcome.group }, cors) : refuse(outcome);
    }
    fail(res, 404, 'not-found', `Not found: ${req.method ?? 'GET'} ${pathname}`, cors);
  }
}

/** `/api/team` on a hub without people: a clear 404, so the app can say why there is no People screen. */
export function createNoTeamRoute(): HttpRouteHandler {
  return (_req, res) =>
    fail(res, 404, 'not-found', 'This hub has no people: start it with --oidc-issuer (see docs/PEOPLE.md)');
}

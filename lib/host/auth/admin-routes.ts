import {
  ADMIN_API_PREFIX,
  type DeviceList,
  type JoinCodeResponse,
  type MachineList,
  type MachineRevokeResponse,
  type PairingCodeResponse,
  type RevokeResponse,
  type AwayState,
  type PeopleList,
  type PersonRevokeResponse,
  IsoTimeSchema,
  type AuditPage,
} from '../../contracts';
import { type PeopleService } from '../people/people-service';
import { createAdminTeamRoutes } from '../people/admin-team-routes';
import { type TeamService } from '../people/team-service';
import { type AuditLog } from '../audit/audit-log';
import { type AuditBy, type AuditTrail } from '../audit/audit-trail';
import { type ClientAddressOf } from '../http/client-address';
import { sendJson } from '../../http/http-replies';
import { type HttpRouteHandler } from '../http/routes';
import { sendApiError } from './api-replies';
import { type Authenticator } from './authenticator';
import { type AwaySwitch } from './away-route';
import { type DeviceService } from './devices';
import { type MachineService } from './machines';

export interface AdminRouteOptions {
  authenticator: Authenticator;
  devices: DeviceService;
  /** Mints a pairing code with the host's TTL and the link that carries it. */
  mintPairingCode(): Promise<PairingCodeResponse>;
  machines: MachineService;
  /** Mints a join code with the host's TTL and the command that uses it (R17.1). */
  mintJoinCode(): Promise<JoinCodeResponse>;
  /** `askaway away` (R19.50). */
  away: AwaySwitch;
  /** A hub with people (R21.20); without, `/people` is not found. */
  people?: PeopleService;
  /** A hub with people: roles and groups for `askaway people role` and `askaway groups` (R21.18, R21.19). */
  team?: TeamService;
  /** A team hub's audit record (R21.60): what the admin token does is recorded, with the CLI's address. */
  audit?: AuditTrail;
  /** `GET /api/admin/audit` reads it (R21.66); without, that path is not found. */
  auditLog?: AuditLog;
  clientAddress: ClientAddressOf;
}

const REVOKE_PATH = new RegExp(`^${ADMIN_API_PREFIX}/devices/([0-9a-f]{1,64})/revoke$`);
const MACHINE_REVOKE_PATH = new RegExp(`^${ADMIN_API_PREFIX}/machines/([0-9a-f]{16})/revoke$`);
const AWAY_SWITCH_PATH = new RegExp(`^${ADMIN_API_PREFIX}/away/(on|off)$`);
const PERSON_REVOKE_PATH = new RegExp(`^${ADMIN_API_PREFIX}/people/([0-9a-f]{16})/revoke$`);
const PERSON_JOIN_CODE_PATH = new RegExp(`^${ADMIN_API_PREFIX}/people/([0-9a-f]{16})/join-codes$`);

/**
 * The admin API under `/api/admin` (R16.8), for `askaway pair` and `askaway devices`: bearer
 * admin token, JSON. No browser may call it (a request with an Origin is refused), and neither
 * the agent token nor a device credential opens it.
 *   POST /api/admin/pairing-codes         → {code, link, expiresAt}
 *   GET  /api/admin/devices               → {devices}
 *   POST /api/admin/devices/<id>/revoke   → {device}
 *   POST /api/admin/join-codes            → {code, hubUrl, command, expiresAt}   (R17.1)
 *   GET  /api/admin/machines              → {machines}                           (R17.5)
 *   POST /api/admin/machines/<id>/revoke  → {machine}                            (R17.2)
 *   GET  /api/admin/away                  → {away}                               (R19.50)
 *   POST /api/admin/away/on, …/away/off   → {away}                               (R19.50)
 *   GET  /api/admin/people                → {people}                             (R21.20)
 *   POST /api/admin/people/<id>/revoke    → {person, devices, machines}          (R21.20)
 *   POST /api/admin/people/<id>/join-codes → {code, hubUrl, command, expiresAt}  (R21.39)
 *   POST /api/admin/people/<id>/role, /api/admin/groups…  → admin-team-routes.ts    (R21.18, R21.19)
 *   GET  /api/admin/audit?since=<iso>&after=<seq> → {entries} oldest first, 1000 at most (R21.66)
 */
export function createAdminRoutes(options: AdminRouteOptions): HttpRouteHandler {
  const teamRoutes = options.team && createAdminTeamRoutes(options.team, options.mintJoinCode);
  return async (req, res, context) => {
    if (req.headers.origin !== undefined) {
      sendApiError(res, 403, 'forbidden', 'The admin API is for the askaway CLI, not for web pages');
      return;
    }
    const auth = options.authenticator.admin(context.bearerToken());
    if (!auth.ok) {
      sendApiError(res, auth.status, auth.status === 401 ? 'unauthorized' : 'forbidden', auth.message, {
        'WWW-Authenticate': 'Bearer realm="askaway-admin"',
      });
      return;
    }
    const { pathname } = context;
    const by: AuditBy = { admin: true, address: options.clientAddress(req) };
    const { audit } = options;
    if (pathname === `${ADMIN_API_PREFIX}/pairing-codes` && req.method === 'POST') {
      sendJson(res, 201, await options.mintPairingCode());
      return;
    }
    if (pathname === `${ADMIN_API_PREFIX}/devices` && req.method === 'GET') {
      sendJson(res, 200, { devices: options.devices.list() } satisfies DeviceList);
      return;
    }
    if (pathname === `${ADMIN_API_PREFIX}/join-codes` && req.method === 'POST') {
      sendJson(res, 201, await options.mintJoinCode());
      return;
    }
    if (pathname === `${ADMIN_API_PREFIX}/machines` && req.method === 'GET') {
      sendJson(res, 200, { machines: options.machines.list() } satisfies MachineList);
      return;
    }
    if (pathname === `${ADMIN_API_PREFIX}/away` && req.method === 'GET') {
      sendJson(res, 200, { away: options.away.get() } satisfies AwayState);
      return;
    }
    const switchTo = AWAY_SWITCH_PATH.exec(pathname)?.[1];
    if (switchTo !== undefined && req.method === 'POST') {
      if (!(await options.away.set(switchTo === 'on'))) {
        sendApiError(res, 503, 'storage-unavailable', 'The host could not record it (see its log); nothing changed');
        return;
      }
      sendJson(res, 200, { away: options.away.get() } satisfies AwayState);
      return;
    }
    if (pathname === `${ADMIN_API_PREFIX}/audit` && req.method === 'GET') {
      if (!options.auditLog) {
        sendApiError(
          res,
          404,
          'not-found',
          'This hub has no audit record: only a hub with people keeps one (--oidc-issuer)',
        );
        return;
      }
      const query = adminAuditQuery(new URL(req.url ?? '/', 'http://hub').searchParams);
      if (typeof query === 'string') {
        sendApiError(res, 400, 'invalid-request', query);
        return;
      }
      sendJson(res, 200, { entries: await options.auditLog.since(query.sinceMs, query.after) } satisfies AuditPage);
      return;
    }
    const { people } = options;
    const teamPath = pathname.startsWith(`${ADMIN_API_PREFIX}/groups`) || pathname.endsWith('/role');
    if (!people && (teamPath || pathname.startsWith(`${ADMIN_API_PREFIX}/people`))) {
      sendApiError(res, 404, 'not-found', 'This hub has no people: start it with --oidc-issuer (see docs/PEOPLE.md)');
      return;
    }
    if (teamRoutes && teamPath) {
      await teamRoutes(req, res, context);
      return;
    }
    if (people && pathname === `${ADMIN_API_PREFIX}/people` && req.method === 'GET') {
      sendJson(res, 200, { people: people.list() } satisfies PeopleList);
      return;
    }
    const personRevoke = people && PERSON_REVOKE_PATH.exec(pathname);
    if (people && personRevoke?.[1] !== undefined && req.method === 'POST') {
      const outcome = await people.revoke(
        personRevoke[1],
        options,
        undefined,
        audit && {
          person: audit.done(by, 'person-removed', (id: string) => audit.personTarget(id)),
          device: audit.done(
            by,
            'device-revoked',
            (device) => audit.deviceTarget(device.id, device.name),
            'person removed',
          ),
          machine: audit.done(
            by,
            'machine-revoked',
            (machine) => audit.machineTarget(machine.id, machine.name),
            'person removed',
          ),
        },
      );
      if (!outcome.ok) {
        if (outcome.reason === 'owner') sendApiError(res, 409, 'conflict', 'The owner cannot be removed from the hub');
        else sendApiError(res, 404, 'not-found', `No person ${personRevoke[1]} on this hub (see \`askaway people\`)`);
        return;
      }
      const { person, devices, machines } = outcome;
      sendJson(res, 200, { person, devices, machines } satisfies PersonRevokeResponse);
      return;
    }
    // The owner invites a machine for a person (`askaway invite --for`): the machine that joins is theirs (R21.39).
    const personJoin = people && PERSON_JOIN_CODE_PATH.exec(pathname);
    if (people && personJoin?.[1] !== undefined && req.method === 'POST') {
      const personId = personJoin[1];
      const person = people.list().find((entry) => entry.id === personId);
      if (!person || person.removedAt !== undefined) {
        sendApiError(res, 404, 'not-found', `No person ${personId} on this hub (see \`askaway people\`)`);
        return;
      }
      const minted = await options.mintJoinCode();
      // In the log before anyone sees the code, so whichever replica the machine joins through finds the grant.
      await people.joinCodeMinted(
        personId,
        undefined,
        minted.code,
        audit?.done(by, 'join-code-minted', (id: string) => audit.personTarget(id)),
      );
      sendJson(res, 201, minted);
      return;
    }
    const machineRevoke = MACHINE_REVOKE_PATH.exec(pathname);
    if (machineRevoke?.[1] !== undefined && req.method === 'POST') {
      const machineId = machineRevoke[1];
      const outcome = await options.machines.revoke(
        machineId,
        undefined,
        audit?.done(by, 'machine-revoked', (machine) => audit.machineTarget(machine.id, machine.name)),
      );
      if (!outcome.ok) {
        sendApiError(res, 404, 'not-found', `No joined machine ${machineId} (see \`askaway machines\`)`);
        return;
      }
      sendJson(res, 200, { machine: outcome.machine } satisfies MachineRevokeResponse);
      return;
    }
    const revoke = REVOKE_PATH.exec(pathname);
    if (revoke?.[1] !== undefined && req.method === 'POST') {
      const deviceId = revoke[1];
      const outcome = await options.devices.revoke(
        deviceId,
        undefined,
        audit?.done(by, 'device-revoked', (device) => audit.deviceTarget(device.id, device.name)),
      );
      if (!outcome.ok) {
        sendApiError(res, 404, 'not-found', `No paired device ${deviceId} (see \`askaway devices\`)`);
        return;
      }
      sendJson(res, 200, { device: outcome.device } satisfies RevokeResponse);
      return;
    }
    sendApiError(res, 404, 'not-found', `Not found: ${req.method ?? 'GET'} ${pathname}`);
  };
}

/** `since` (an ISO time, default the beginning) and `after` (a seq to page on, default 0); a string says what is wrong. */
function adminAuditQuery(params: URLSearchParams): { sinceMs: number; after: number } | string {
  const since = params.get('since');
  const after = params.get('after');
  const sinceMs = since === null ? 0 : Date.parse(since);
  if (since !== null && (!IsoTimeSchema.safeParse(since).success || Number.isNaN(sinceMs)))
    return `since must be an ISO time such as 2026-01-31T09:00:00Z, got ${JSON.stringify(since.slice(0, 40))}`;
  if (after !== null && !/^\d{1,15}$/.test(after))
    return `after must be a seq (a whole number), got ${JSON.stringify(after.slice(0, 40))}`;
  return { sinceMs, after: after === null ? 0 : Number(after) };
}

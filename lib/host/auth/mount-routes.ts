import { type IncomingMessage } from 'node:http';
import {
  ADMIN_API_PREFIX,
  JOIN_API_PATH,
  PAIR_API_PATH,
  WHOAMI_API_PATH,
  AWAY_API_PATH,
  type JoinCodeResponse,
  type PairingCodeResponse,
} from '../../contracts';
import { type ClientAddressOf } from '../http/client-address';
import { type HttpRouteRegistry } from '../http/routes';
import { type RateLimit } from '../sockets/token-bucket';
import { createAdminRoutes } from './admin-routes';
import {
  AttemptLimiter,
  DEFAULT_PAIR_LIMIT_GLOBAL,
  DEFAULT_PAIR_LIMIT_PER_ADDRESS,
  type SharedAttemptCounts,
} from './attempt-limiter';
import { type Authenticator } from './authenticator';
import { createAgentAwayRoute, type AwaySwitch } from './away-route';
import { type DeviceService } from './devices';
import { createJoinRoute, createWhoAmIRoute } from './join-route';
import { type JoinCodeOwner, type MachineService } from './machines';
import { type OneTimeCodeBook } from './one-time-codes';
import { createPairRoute } from './pair-route';
import { type PeopleService } from '../people/people-service';
import { type TeamService } from '../people/team-service';
import { type AuditLog } from '../audit/audit-log';
import { type AuditTrail } from '../audit/audit-trail';

/**
 * `POST /api/pair` for the app (R16.2, R16.3), `POST /api/join` and `GET /api/agent/whoami` for
 * other machines (R17.1, R17.8) and `/api/admin/…` for the CLI (R16.8), on the host's routes.
 */
export function mountPairingRoutes(
  routes: HttpRouteRegistry,
  options: {
    codes: OneTimeCodeBook;
    devices: DeviceService;
    machines: MachineService;
    authenticator: Authenticator;
    pairTtlMs: number;
    pairLimits?: { perAddress: RateLimit; global: RateLimit; failurePauseMs?: number };
    /** A team hub's failed-attempt buckets, shared by its replicas (R20.46). */
    sharedAttempts?: SharedAttemptCounts;
    /** Where a request came from, behind the trusted proxies (R20.49). */
    clientAddress: ClientAddressOf;
    originAllowed(req: IncomingMessage): boolean;
    personForCode?: (code: string) => Promise<string | undefined>;
    ownerForJoinCode?: (code: string) => Promise<JoinCodeOwner | undefined>;
    people?: PeopleService;
    team?: TeamService;
    /** A team hub's audit record (R21.60): what pairs, joins and the admin token does, and `GET …/audit`. */
    audit?: AuditTrail;
    /** Reads the audit record for `GET /api/admin/audit` (R21.66). */
    auditLog?: AuditLog;
    mintPairingCode(): Promise<PairingCodeResponse>;
    mintJoinCode(): Promise<JoinCodeResponse>;
    away: AwaySwitch;
  },
): void {
  const limiter = new AttemptLimiter({
    perAddress: options.pairLimits?.perAddress ?? DEFAULT_PAIR_LIMIT_PER_ADDRESS,
    global: options.pairLimits?.global ?? DEFAULT_PAIR_LIMIT_GLOBAL,
    failurePauseMs: options.pairLimits?.failurePauseMs,
    shared: options.sharedAttempts,
  });
  routes.register('*', PAIR_API_PATH, createPairRoute({ ...options, limiter }));
  // One limiter for both: guesses at any one-time code count together (R16.3).
  routes.register('*', JOIN_API_PATH, createJoinRoute({ ...options, limiter, ttlMs: options.pairTtlMs }));
  routes.register('*', WHOAMI_API_PATH, createWhoAmIRoute(options.machines));
  routes.register('*', AWAY_API_PATH, createAgentAwayRoute(options.away));
  routes.register('*', ADMIN_API_PREFIX, createAdminRoutes(options));
}

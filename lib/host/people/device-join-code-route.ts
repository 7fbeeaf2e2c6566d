import { type IncomingMessage } from 'node:http';
import { DEVICE_JOIN_CODES_API_PATH, DeviceJoinCodeRequestSchema, type JoinCodeResponse } from '../../contracts';
import { sendJson } from '../../http/http-replies';
import { sendApiError as fail } from '../auth/api-replies';
import { type AuthResult } from '../auth/principal';
import { type HttpRouteHandler } from '../http/routes';
import { TokenBucket, type RateLimit } from '../sockets/token-bucket';
import { readTeamBody } from './team-request-body';
import { type TeamRefusal } from './team-service';

/** A person inviting their machines: a few at once, then one a minute. Each code costs an event in the log. */
export const DEFAULT_DEVICE_JOIN_CODE_LIMIT: RateLimit = { capacity: 5, refillPerSecond: 1 / 60 };

export interface DeviceJoinCodeRouteOptions {
  /** A paired device's credential only (R16.1). */
  authenticate(candidate: string | undefined): Promise<AuthResult>;
  /** The person the device belongs to, if any (R21.12). */
  personOf(deviceId: string): string | undefined;
  /** Mints a join code, as `askaway invite` does. */
  mintJoinCode(): Promise<JoinCodeResponse>;
  /** Ties the code to the person in the log before anyone sees it (R21.15). */
  recordGrant(personId: string, deviceId: string, code: string, req: IncomingMessage): Promise<void>;
  /** Whether this device may invite a machine for this group (an owner's, admin's or the operator's, R21.19). */
  groupRefusal(deviceId: string, groupId: string): TeamRefusal | undefined;
  /** Ties the code to the group in the log before anyone sees it (R21.18), deciding again at the log's head. */
  recordGroupGrant(deviceId: string, groupId: string, code: string): Promise<TeamRefusal | undefined>;
  originAllowed(req: IncomingMessage): boolean;
  rateLimit?: RateLimit;
  onError(error: unknown): void;
}

/**
 * `POST /api/device/join-codes` (R21.15): a device mints a join code, and the machine that joins with it belongs to
 * the device's person. The grant is in the log before the code is handed out, so whichever replica the machine joins
 * through finds it; a grant the log refuses hands out no code. A device that belongs to nobody (paired with a link
 * from `askaway pair`) is refused: the owner's machines are invited with `askaway invite` on the hub. Mounted only
 * on a hub with people: a personal hub's devices never mint join codes. With a body `{groupId}` an owner's, an
 * admin's or the operator's device mints a code for a group's shared machine (R21.18): the machine is the group's.
 */
export function createDeviceJoinCodeRoute(options: DeviceJoinCodeRouteOptions): HttpRouteHandler {
  const buckets = new Map<string, TokenBucket>();
  const limit = options.rateLimit ?? DEFAULT_DEVICE_JOIN_CODE_LIMIT;
  return async (req, res, context) => {
    if (context.pathname !== DEVICE_JOIN_CODES_API_PATH) {
      fail(res, 404, 'not-found', `Not found: a device's join code is POST ${DEVICE_JOIN_CODES_API_PATH}`);
      return;
    }
    if (req.headers.origin !== undefined && !options.originAllowed(req)) {
      fail(res, 403, 'origin-not-allowed', `Join codes for ${req.headers.origin} are not allowed`);
      return;
    }
    if (req.method !== 'POST') {
      fail(res, 405, 'invalid-request', `A join code is POST ${DEVICE_JOIN_CODES_API_PATH}`, { Allow: 'POST' });
      return;
    }
    const auth = await options.authenticate(context.bearerToken());
    if (!auth.ok) {
      fail(res, 401, 'unauthorized', auth.message, { 'WWW-Authenticate': 'Bearer realm="askaway-device"' });
      return;
    }
    const deviceId = auth.principal.id;
    let bucket = buckets.get(deviceId);
    if (!bucket) buckets.set(deviceId, (bucket = new TokenBucket(limit.capacity, limit.refillPerSecond)));
    if (!bucket.take()) {
      fail(res, 429, 'rate-limited', 'Too many join codes from this device; try again in a minute');
      return;
    }
    const body = await readTeamBody(req, DeviceJoinCodeRequestSchema);
    if (!body.ok) {
      fail(res, body.status, 'invalid-request', body.message);
      return;
    }
    const { groupId } = body.data;
    if (groupId !== undefined) {
      const refusal = options.groupRefusal(deviceId, groupId);
      if (refusal) {
        fail(res, refusal.status, refusal.code, refusal.message);
        return;
      }
      const minted = await options.mintJoinCode();
      let refused: TeamRefusal | undefined;
      try {
        refused = await options.recordGroupGrant(deviceId, groupId, minted.code);
      } catch (error) {
        options.onError(error);
        fail(res, 503, 'storage-unavailable', 'The hub could not record the join code (see its log); try again');
        return;
      }
      if (refused) fail(res, refused.status, refused.code, refused.message);
      else sendJson(res, 201, minted);
      return;
    }
    const personId = options.personOf(deviceId);
    if (personId === undefined) {
      fail(
        res,
        403,
        'forbidden',
        'This device belongs to nobody (it was paired with a pairing link): invite machines with `askaway invite` on the hub, or sign in on this device',
      );
      return;
    }
    const minted = await options.mintJoinCode();
    try {
      await options.recordGrant(personId, deviceId, minted.code, req);
    } catch (error) {
      options.onError(error);
      fail(res, 503, 'storage-unavailable', 'The hub could not record the join code (see its log); try again');
      return;
    }
    sendJson(res, 201, minted);
  };
}

import { JOIN_API_PATH, JoinRequestSchema, type JoinResponse, type WhoAmIResponse } from '../../contracts';
import { sendJson } from '../../http/http-replies';
import { type AuditTrail } from '../audit/audit-trail';
import { type HttpRouteHandler } from '../http/routes';
import { HOST_VERSION } from '../version';
import { describeTtl, sendApiError as fail } from './api-replies';
import { type ClientAddressOf } from '../http/client-address';
import { type AttemptLimiter } from './attempt-limiter';
import { readCodeExchange, refuseAttempt } from './code-exchange-request';
import { type JoinCodeOwner, type MachineService } from './machines';
import { type OneTimeCodeBook } from './one-time-codes';

/** The one answer for a used, expired, unknown or pre-restart join code (R17.1): a guess learns nothing from it. */
export function invalidJoinCodeMessage(ttlMs: number, hubName: string): string {
  return (
    `This join code was already used or has expired: a code works once, for ${describeTtl(ttlMs)}, and not after ` +
    `the hub restarts. Get a new one: run \`askaway invite\` on ${hubName}.`
  );
}

/**
 * `POST /api/join {code, name}` → `{machine, credential, hubName}` (R17.1): the only way to get a
 * machine credential. For the askaway CLI, not for web pages (a request with an Origin is refused).
 * Failed attempts are rate-limited together with pairing's (R16.3); a refused code or a taken name
 * changes nothing, a taken name does not use the code up, and a bad code is answered alike whatever the name. Neither the code nor the credential reaches a log (R17.7).
 */
export function createJoinRoute(options: {
  codes: OneTimeCodeBook;
  machines: MachineService;
  limiter: AttemptLimiter;
  clientAddress: ClientAddressOf;
  ttlMs: number;
  /** On a team hub: the person or group this join code was minted for, who then owns the machine (R21.15, R21.18). */
  ownerForJoinCode?: (code: string) => Promise<JoinCodeOwner | undefined>;
  /** A team hub's record of the join, from where (R21.60). */
  audit?: AuditTrail;
}): HttpRouteHandler {
  return async (req, res, context) => {
    if (context.pathname !== JOIN_API_PATH) {
      fail(res, 404, 'not-found', `Not found: joining is POST ${JOIN_API_PATH}`);
      return;
    }
    if (req.headers.origin !== undefined) {
      fail(res, 403, 'forbidden', 'Joining is for the askaway CLI (`askaway join`), not for web pages');
      return;
    }
    if (req.method !== 'POST') {
      fail(res, 405, 'invalid-request', `Joining is POST ${JOIN_API_PATH}`, { Allow: 'POST' });
      return;
    }
    const request = await readCodeExchange(req, res, {
      limiter: options.limiter,
      clientAddress: options.clientAddress,
      schema: JoinRequestSchema,
      what: 'join',
    });
    if (!request) return;
    const { data, address } = request;
    // The code first, so a bad code gets the same answer whatever the name (no probing for names); a taken
    // name, or a join the disk refuses (R12.6), leaves the code usable.
    const exchanged = await options.codes.exchange('join-machine', data.code, async () => {
      const owner = await options.ownerForJoinCode?.(data.code);
      const outcome = await options.machines.join(data.name, owner, options.audit?.joined(address, owner?.personId));
      return { spend: outcome.ok, value: outcome };
    });
    if (!exchanged.redeemed) {
      await refuseAttempt(res, {
        limiter: options.limiter,
        address,
        what: 'join',
        status: 410,
        code: 'join-code-invalid',
        message: invalidJoinCodeMessage(options.ttlMs, options.machines.hubName),
      });
      return;
    }
    const outcome = exchanged.value;
    if (!outcome.ok) {
      fail(res, 409, 'conflict', outcome.message);
      return;
    }
    const { machine, credential, hubName } = outcome.joined;
    sendJson(res, 200, { machine, credential, hubName } satisfies JoinResponse);
  };
}

/**
 * `GET /api/agent/whoami` with a runtime credential (R17.8): which hub this is and which machine
 * the credential speaks for, so `askaway status` can say so. Refusals name what was offered.
 */
export function createWhoAmIRoute(machines: MachineService): HttpRouteHandler {
  return async (req, res, context) => {
    const auth = await context.authenticateAgent(context.bearerToken());
    if (!auth.ok) {
      fail(
        res,
        auth.code === 'unauthorized' ? 401 : 403,
        auth.code === 'unauthorized' ? 'unauthorized' : 'forbidden',
        auth.message,
        {
          'WWW-Authenticate': 'Bearer realm="askaway"',
        },
      );
      return;
    }
    if (req.method !== 'GET') {
      fail(res, 405, 'invalid-request', 'whoami is GET', { Allow: 'GET' });
      return;
    }
    const reply: WhoAmIResponse = {
      hubName: machines.hubName.slice(0, 255),
      hubVersion: HOST_VERSION,
      machine: machines.refFor(auth.principal),
    };
    sendJson(res, 200, reply);
  };
}

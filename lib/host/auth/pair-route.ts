import { type IncomingMessage } from 'node:http';
import { PAIR_API_PATH, PairRequestSchema, type PairResponse } from '../../contracts';
import { sendJson } from '../../http/http-replies';
import { type AuditTrail } from '../audit/audit-trail';
import { type HttpRouteHandler } from '../http/routes';
import { describeTtl, sendApiError as fail } from './api-replies';
import { type ClientAddressOf } from '../http/client-address';
import { type AttemptLimiter } from './attempt-limiter';
import { readCodeExchange, refuseAttempt } from './code-exchange-request';
import { type DeviceService } from './devices';
import { type OneTimeCodeBook } from './one-time-codes';

export interface PairRouteOptions {
  codes: OneTimeCodeBook;
  devices: DeviceService;
  limiter: AttemptLimiter;
  clientAddress: ClientAddressOf;
  /** How long a code lives, for the message a late one gets. */
  pairTtlMs: number;
  /** On a team hub: the person whose sign-in minted this code, who then owns the device (R21.12). */
  personForCode?: (code: string) => Promise<string | undefined>;
  /** A team hub's record of who paired, from where (R21.60). */
  audit?: AuditTrail;
  /** The same rule as the sockets': same origin, the public URL, `--allow-origin`. */
  originAllowed(req: IncomingMessage): boolean;
}

/** The one answer for a used, expired, unknown or pre-restart code (R16.3): a guess learns nothing from it. */
export function invalidCodeMessage(pairTtlMs: number): string {
  return (
    `This pairing link was already used or has expired: a link works once, for ${describeTtl(pairTtlMs)}, ` +
    'and not after the host restarts. Get a new one: run `askaway pair` on the computer running Askaway.'
  );
}

/**
 * `POST /api/pair {code, name, platform, replaces?}` → `{deviceId, credential, hostName}` (R16.2):
 * the only way to get a device credential; `replaces` lets a device that pairs again take its old
 * entry's place (R16.9). Failed attempts are counted and slowed per address and overall (R16.3);
 * a refused code changes nothing. The code and the credential never reach a log line (R16.6).
 */
export function createPairRoute(options: PairRouteOptions): HttpRouteHandler {
  return async (req, res, context) => {
    if (context.pathname !== PAIR_API_PATH) {
      fail(res, 404, 'not-found', `Not found: pairing is POST ${PAIR_API_PATH}`);
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !options.originAllowed(req)) {
      fail(
        res,
        403,
        'origin-not-allowed',
        `Pairing from ${origin} is not allowed (start the host with --allow-origin)`,
      );
      return;
    }
    // A page served elsewhere (--allow-origin) may pair with this host: let it read the answer.
    const cors: Record<string, string> =
      origin === undefined ? {} : { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        ...cors,
        'Access-Control-Allow-Methods': 'POST',
        'Access-Control-Allow-Headers': 'Content-Type',
        'Access-Control-Max-Age': '600',
      });
      res.end();
      return;
    }
    if (req.method !== 'POST') {
      fail(res, 405, 'invalid-request', `Pairing is POST ${PAIR_API_PATH}`, { ...cors, Allow: 'POST, OPTIONS' });
      return;
    }
    const request = await readCodeExchange(req, res, {
      limiter: options.limiter,
      clientAddress: options.clientAddress,
      schema: PairRequestSchema,
      what: 'pairing',
      headers: cors,
    });
    if (!request) return;
    const { data, address } = request;
    // Only after the code: a credential in `replaces` is never checked for someone without one (R16.9).
    // A pairing the disk refuses throws, and the code stays usable (R12.6).
    const exchanged = await options.codes.exchange('pair-device', data.code, async () => {
      const personId = await options.personForCode?.(data.code);
      return { spend: true, value: await options.devices.pair({ ...data, personId }, options.audit?.paired(address)) };
    });
    if (!exchanged.redeemed) {
      await refuseAttempt(res, {
        limiter: options.limiter,
        address,
        what: 'pairing',
        status: 410,
        code: 'pairing-code-invalid',
        message: invalidCodeMessage(options.pairTtlMs),
        headers: cors,
      });
      return;
    }
    const paired: PairResponse = exchanged.value;
    sendJson(res, 200, paired, cors);
  };
}

import { type IncomingMessage } from 'node:http';
import { ADMIN_API_PREFIX, PAIR_API_PATH, type PairingCodeResponse } from '../../contracts';
import { type HttpRouteRegistry } from '../http/routes';
import { type RateLimit } from '../sockets/token-bucket';
import { createAdminRoutes } from './admin-routes';
import { AttemptLimiter, DEFAULT_PAIR_LIMIT_GLOBAL, DEFAULT_PAIR_LIMIT_PER_ADDRESS } from './attempt-limiter';
import { type Authenticator } from './authenticator';
import { type DeviceService } from './devices';
import { type OneTimeCodes } from './one-time-codes';
import { createPairRoute } from './pair-route';

/** `POST /api/pair` for the app (R16.2, R16.3) and `/api/admin/…` for the CLI (R16.8), on the host's routes. */
export function mountPairingRoutes(
  routes: HttpRouteRegistry,
  options: {
    codes: OneTimeCodes;
    devices: DeviceService;
    authenticator: Authenticator;
    pairTtlMs: number;
    pairLimits?: { perAddress: RateLimit; global: RateLimit };
    originAllowed(req: IncomingMessage): boolean;
    mintPairingCode(): PairingCodeResponse;
  },
): void {
  const limiter = new AttemptLimiter({
    perAddress: options.pairLimits?.perAddress ?? DEFAULT_PAIR_LIMIT_PER_ADDRESS,
    global: options.pairLimits?.global ?? DEFAULT_PAIR_LIMIT_GLOBAL,
  });
  routes.register('*', PAIR_API_PATH, createPairRoute({ ...options, limiter }));
  routes.register('*', ADMIN_API_PREFIX, createAdminRoutes(options));
}

import { ME_API_PATH, type MeResponse } from '../../contracts';
import { sendJson } from '../../http/http-replies';
import { sendApiError as fail } from '../auth/api-replies';
import { type DeviceService } from '../auth/devices';
import { BEARER_GET, deviceRequestGate, type DeviceRequestOptions } from '../http/device-request';
import { type HttpRouteHandler } from '../http/routes';

export interface MeRouteOptions extends DeviceRequestOptions {
  devices: Pick<DeviceService, 'get'>;
}

/**
 * `GET /api/me` with `Authorization: Bearer <device credential>` → `{deviceId, person}` (R21.31): whose this device
 * is, for Settings' "Signed in as …". Only the calling device's own person, only to that device: the rest of the
 * people stay on the hub (R21.13). A device paired with a pairing link, or any device of a hub without sign-in,
 * gets `person: null`.
 */
export function createMeRoute(options: MeRouteOptions): HttpRouteHandler {
  const gate = deviceRequestGate(options);
  return async (req, res, context) => {
    if (context.pathname !== ME_API_PATH) return fail(res, 404, 'not-found', `Not found: ${context.pathname}`);
    const request = await gate(req, res, context, BEARER_GET);
    if (!request) return;
    const { deviceId, cors } = request;
    const device = options.devices.get(deviceId);
    if (!device) return fail(res, 401, 'unauthorized', 'This device was removed from this hub. Pair again.', cors);
    const me: MeResponse = { deviceId: device.id, person: device.person ?? null };
    sendJson(res, 200, me, cors);
  };
}

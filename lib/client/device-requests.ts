import './zod-csp';
import { type DeviceInfo } from '../contracts/devices';
import { DevicesAckSchema, SimpleAckSchema } from '../contracts/wire';
import { getPairingProblem, subscribePairing } from './pairing';
import { describeIssues } from './protocol-error';
import { pushRequest } from './push/channel';

// Settings → Devices (R16.4, R16.5) over the remote's socket: the same acked-request channel push uses.

export class DeviceRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeviceRequestError';
  }
}

/** Every paired device with whether it is online and when it was last seen. */
export async function listDevices(): Promise<DeviceInfo[]> {
  const ack = DevicesAckSchema.safeParse(await pushRequest('devices:list'));
  if (!ack.success)
    throw new DeviceRequestError(`Unexpected reply to 'devices:list': ${describeIssues(ack.error.issues)}`);
  if (!ack.data.ok) throw new DeviceRequestError(ack.data.error.message);
  return ack.data.devices;
}

/** Revokes a device (this one included): the host drops its connections at once. */
export function revokeDevice(deviceId: string): Promise<void> {
  return simple('devices:revoke', { deviceId });
}

/**
 * Revokes this device itself. The host's revocation event reaches this app before the ack and
 * closes the connection, so whichever comes first settles it.
 */
export function revokeThisDevice(deviceId: string): Promise<void> {
  let unsubscribe: () => unknown = () => undefined;
  const removed = new Promise<void>((resolve) => {
    unsubscribe = subscribePairing(() => {
      if (getPairingProblem()?.kind === 'device-revoked') resolve();
    });
  });
  return Promise.race([revokeDevice(deviceId), removed]).finally(() => unsubscribe());
}

/** Renames this device in the host's list and on the answers it gives from now on. */
export function renameThisDevice(name: string): Promise<void> {
  return simple('device:rename', { name });
}

async function simple(event: string, payload: unknown): Promise<void> {
  const ack = SimpleAckSchema.safeParse(await pushRequest(event, payload));
  if (!ack.success) throw new DeviceRequestError(`Unexpected reply to '${event}': ${describeIssues(ack.error.issues)}`);
  if (!ack.data.ok) throw new DeviceRequestError(ack.data.error.message);
}

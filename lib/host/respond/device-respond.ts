import { type RespondAck, type RespondCommand } from '../../contracts';
import { type DeviceService } from '../auth/devices';
import { redactResolutionForRemotes } from '../redact-secrets';
import { type InteractionRegistry } from '../registry';

/**
 * A device's answer, however it arrives: the socket's `respond` and a notification's button (`POST
 * /api/respond`, R14.10) both end here, so both meet the same checks, the same first-wins rule (R10.3) and the
 * same ack. The device's name is the one the log has now (a rename shows on later answers).
 */
export async function respondAsDevice(
  registry: InteractionRegistry,
  devices: Pick<DeviceService, 'nameOf'>,
  deviceId: string,
  command: RespondCommand,
): Promise<RespondAck> {
  const ack = await registry.respond(command, { id: deviceId, label: devices.nameOf(deviceId) ?? deviceId });
  return ack.ok
    ? { ...ack, resolution: redactResolutionForRemotes(ack.resolution, registry.projection.get(command.requestId)) }
    : ack;
}

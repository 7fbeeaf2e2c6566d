import { personLabel, type Device, type RespondAck, type RespondCommand } from '../../contracts';
import { type AuditTrail } from '../audit/audit-trail';
import { respondAudit } from '../audit/respond-audit';
import { type DeviceService } from '../auth/devices';
import { redactResolutionForRemotes } from '../redact-secrets';
import { type InteractionRegistry } from '../registry';

/**
 * A device's answer, however it arrives: the socket's `respond` and a notification's button (`POST
 * /api/respond`, R14.10) both end here, so both meet the same checks, the same first-wins rule (R10.3) and the
 * same ack. The device's name is the one the log has now (a rename shows on later answers), and on a team hub its
 * person's name too: "Answered by Ana on her Pixel" (R21.22). On a team hub `audit` records the answer, or the
 * refused attempt, with where it came from (R21.61, R21.62).
 */
export async function respondAsDevice(
  registry: InteractionRegistry,
  devices: Pick<DeviceService, 'nameOf'>,
  deviceId: string,
  command: RespondCommand,
  audit?: { trail: AuditTrail; address?: string; via: 'app' | 'notification' },
): Promise<RespondAck> {
  const person = registry.projection.personOfDevice(deviceId);
  const device: Device = {
    id: deviceId,
    label: devices.nameOf(deviceId) ?? deviceId,
    ...(person ? { person: { id: person.id, name: personLabel(person) } } : {}),
  };
  const recorded =
    audit && respondAudit(audit.trail, { deviceId, address: audit.address, via: audit.via }, command.response);
  const ack = await registry.respond(command, device, recorded);
  return ack.ok
    ? { ...ack, resolution: redactResolutionForRemotes(ack.resolution, registry.projection.get(command.requestId)) }
    : ack;
}

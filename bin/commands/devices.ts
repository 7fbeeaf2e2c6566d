import {
  DeviceListSchema,
  personLabel,
  RevokeResponseSchema,
  type DeviceInfo,
  type PersonRef,
} from '../../lib/contracts';
import { adminRequest } from './admin-client';
import { credentialListCommand, findByIdOrName } from './credential-list-command';
import { formatTable, formatTime, lastSeen } from './list-format';

export const DEVICES_USAGE = `Usage:
  askaway devices [--json] [--data-dir <dir>]
  askaway devices revoke <id or name> [--data-dir <dir>]

Lists the phones and browsers paired with the running host: id, name, platform, when
it was paired and when it was last seen. \`revoke\` takes a device's access back at
once: its open app is disconnected and told it was removed, its notifications stop,
and it must pair again with a new link (\`askaway pair\`).

Options:
  --json             Print the list as JSON
  --data-dir <dir>   The running host's data dir (env ASKAWAY_DATA_DIR, default ~/.askaway)
  -h, --help         Show this help
`;

export const devicesCommand = credentialListCommand<DeviceInfo>({
  name: 'devices',
  summary: 'List paired phones and browsers; revoke one',
  usage: DEVICES_USAGE,
  revokeTakes: 'one device id or name',
  list: async (target) => (await adminRequest(target, 'GET', '/devices', DeviceListSchema)).devices,
  async revoke(target, devices, which) {
    const device = findDevice(devices, which);
    const { device: revoked } = await adminRequest(
      target,
      'POST',
      `/devices/${encodeURIComponent(device.id)}/revoke`,
      RevokeResponseSchema,
    );
    return `Revoked ${revoked.name} (${revoked.id}): it is disconnected and must pair again.`;
  },
  format: (devices) => formatDevices(devices),
  json: (devices) => ({ devices }),
});

/** An exact id, else a unique id prefix (4+ characters), else a unique name (any case). */
export function findDevice(devices: readonly DeviceInfo[], which: string): DeviceInfo {
  return findByIdOrName(devices, which, { one: 'paired device', many: 'devices' });
}

/** A table a person reads: id, name, platform, paired, last seen; on a team hub, whose each device is (R21.12). */
export function formatDevices(devices: readonly DeviceInfo[], now = new Date()): string {
  if (devices.length === 0) return 'No paired devices. `askaway pair` prints a pairing link.\n';
  const people = devices.some((device) => device.person !== undefined);
  return formatTable([
    ['ID', 'NAME', ...(people ? ['PERSON'] : []), 'PLATFORM', 'PAIRED', 'LAST SEEN'],
    ...devices.map((device) => [
      device.id,
      device.name,
      ...(people ? [personColumn(device.person)] : []),
      device.platform || '—',
      formatTime(device.pairedAt),
      device.online ? 'online now' : lastSeen(device.lastSeenAt, now),
    ]),
  ]);
}

/** "Ana Lima <ana@example.com>, owner"; a device paired with a link (`askaway pair`) belongs to nobody. */
function personColumn(person: PersonRef | undefined): string {
  if (!person) return '— (pairing link)';
  const email = person.name !== undefined && person.email !== undefined ? ` <${person.email}>` : '';
  return `${personLabel(person)}${email}, ${person.role}`;
}

import { parseArgs } from 'node:util';
import { DeviceListSchema, errorMessage, RevokeResponseSchema, type DeviceInfo } from '../../lib/contracts';
import { AdminError, adminRequest, findAdminTarget, type AdminTarget } from './admin-client';
import { formatTable, formatTime, lastSeen } from './list-format';
import { type CliCommand } from './types';

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

export const devicesCommand: CliCommand = {
  name: 'devices',
  summary: 'List paired phones and browsers; revoke one',
  async run(argv) {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        strict: true,
        allowPositionals: true,
        options: { json: { type: 'boolean' }, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      });
    } catch (error) {
      return usageError(errorMessage(error));
    }
    const { values, positionals } = parsed;
    if (values.help) {
      process.stdout.write(DEVICES_USAGE);
      return 0;
    }
    const [verb, ...rest] = positionals;
    if (verb !== undefined && verb !== 'revoke') return usageError(`unknown subcommand "${verb}"`);
    if (verb === 'revoke' && rest.length !== 1) return usageError('revoke takes one device id or name');
    try {
      const target = findAdminTarget(process.env, values['data-dir']);
      const { devices } = await adminRequest(target, 'GET', '/devices', DeviceListSchema);
      if (verb === 'revoke') return await revoke(target, devices, rest[0] ?? '');
      process.stdout.write(values.json ? `${JSON.stringify({ devices })}\n` : formatDevices(devices));
      return 0;
    } catch (error) {
      if (!(error instanceof AdminError)) throw error;
      process.stderr.write(`askaway devices: ${error.message}\n`);
      return error.exitCode;
    }
  },
};

async function revoke(target: AdminTarget, devices: readonly DeviceInfo[], which: string): Promise<number> {
  const device = findDevice(devices, which);
  const { device: revoked } = await adminRequest(
    target,
    'POST',
    `/devices/${encodeURIComponent(device.id)}/revoke`,
    RevokeResponseSchema,
  );
  process.stdout.write(`Revoked ${revoked.name} (${revoked.id}): it is disconnected and must pair again.\n`);
  return 0;
}

/** An exact id, else a unique id prefix (4+ characters), else a unique name (any case). */
export function findDevice(devices: readonly DeviceInfo[], which: string): DeviceInfo {
  const wanted = which.trim();
  const byId = devices.find((device) => device.id === wanted);
  if (byId) return byId;
  const candidates =
    wanted.length >= 4 && devices.some((device) => device.id.startsWith(wanted))
      ? devices.filter((device) => device.id.startsWith(wanted))
      : devices.filter((device) => device.name.toLowerCase() === wanted.toLowerCase());
  const [only, ...others] = candidates;
  if (!only) throw new AdminError(`No paired device "${wanted}". \`askaway devices\` lists them.`);
  if (others.length > 0) {
    const ids = candidates.map((device) => `${device.id} (${device.name})`).join(', ');
    throw new AdminError(`"${wanted}" matches ${candidates.length} devices: ${ids}. Revoke one by its id.`);
  }
  return only;
}

/** A table a person reads: id, name, platform, paired, last seen. */
export function formatDevices(devices: readonly DeviceInfo[], now = new Date()): string {
  if (devices.length === 0) return 'No paired devices. `askaway pair` prints a pairing link.\n';
  return formatTable([
    ['ID', 'NAME', 'PLATFORM', 'PAIRED', 'LAST SEEN'],
    ...devices.map((device) => [
      device.id,
      device.name,
      device.platform || '—',
      formatTime(device.pairedAt),
      device.online ? 'online now' : lastSeen(device.lastSeenAt, now),
    ]),
  ]);
}

function usageError(message: string): number {
  process.stderr.write(`askaway devices: ${message}\n\n${DEVICES_USAGE}`);
  return 2;
}

import { AuditPageSchema, type AuditLine } from '../../lib/contracts';
import { AdminError, adminRequest, findAdminTarget } from './admin-client';
import { parseFlags, usageError } from './parse-flags';
import { type CliCommand } from './types';

export const AUDIT_USAGE = `Usage:
  askaway audit [--since <time>] [--data-dir <dir>]

Run on a hub started with --oidc-issuer. Prints its audit record as JSON lines, oldest
first: who answered, skipped or declined which question, who paired, signed in, joined a
machine, minted a join code, revoked a device or machine or removed a person, from which
device and address, and the attempts the hub refused. Kept as long as the log is.

Options:
  --since <time>     Only entries from then on: an ISO time (2026-01-31T09:00:00Z) or how
                     long ago (30m, 24h, 7d)
  --data-dir <dir>   The running hub's data dir (env ASKAWAY_DATA_DIR, default ~/.askaway)
  -h, --help         Show this help
`;

const DURATION = /^(\d{1,6})([mhd])$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `--since` as an ISO time, or a string saying what is wrong with it. */
export function parseSince(value: string, now: Date): string | { error: string } {
  const duration = DURATION.exec(value);
  if (duration) {
    const [, amount = '0', unit = 'h'] = duration;
    return new Date(now.getTime() - Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS]).toISOString();
  }
  const time = Date.parse(value);
  if (/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/.test(value) && !Number.isNaN(time))
    return new Date(time).toISOString();
  return {
    error: `--since takes an ISO time (2026-01-31T09:00:00Z) or how long ago (30m, 24h, 7d), got "${value}"`,
  };
}

/**
 * `askaway audit [--since …]` (R21.66): the hub's audit record through `GET /api/admin/audit` with the admin token,
 * page after page, one JSON line per entry.
 */
export const auditCommand: CliCommand = {
  name: 'audit',
  summary: "Print a team hub's audit record as JSON lines",
  async run(argv) {
    const parsed = parseFlags('audit', AUDIT_USAGE, argv, {
      since: { type: 'string' },
      'data-dir': { type: 'string' },
    });
    if ('exit' in parsed) return parsed.exit;
    const { values } = parsed;
    const since = values.since === undefined ? undefined : parseSince(values.since, new Date());
    if (typeof since === 'object') return usageError('audit', AUDIT_USAGE, since.error);
    try {
      const target = findAdminTarget(process.env, values['data-dir']);
      let after = 0;
      for (;;) {
        const query = new URLSearchParams({ after: String(after), ...(since !== undefined ? { since } : {}) });
        const page = await adminRequest(target, 'GET', `/audit?${query.toString()}`, AuditPageSchema);
        if (page.entries.length === 0) return 0;
        process.stdout.write(page.entries.map((entry: AuditLine) => `${JSON.stringify(entry)}\n`).join(''));
        after = page.entries.at(-1)?.seq ?? after;
      }
    } catch (error) {
      if (!(error instanceof AdminError)) throw error;
      process.stderr.write(`askaway audit: ${error.message}\n`);
      return error.exitCode;
    }
  },
};

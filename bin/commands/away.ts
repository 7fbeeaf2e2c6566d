import { AwayStateSchema } from '../../lib/contracts';
import { AdminError, adminRequest, findAdminTarget } from './admin-client';
import { parseFlags, usageError } from './parse-flags';
import { type CliCommand } from './types';

export const AWAY_USAGE = `Usage:
  askaway away [on|off] [--data-dir <dir>]

Says whether you are away from your desk, or switches it (the same switch as the
phone's Settings → Finished turns → "I'm away from my desk"). While you are away,
Claude Code holds each finished turn for your reply from the phone: its terminal shows
"running Stop hook", and a prompt you type there still goes first. Back at the desk,
switch it off and Claude Code's turns end at once again; the phone still shows them.

Options:
  --data-dir <dir>   The running host's data dir (env ASKAWAY_DATA_DIR, default ~/.askaway)
  -h, --help         Show this help
`;

const said = (away: boolean) =>
  away
    ? "Away: Claude Code waits for your reply from the phone after each turn (askaway away off when you're back).\n"
    : 'At your desk: Claude Code ends its turns at once; the phone still shows them (askaway away on to reply from it).\n';

/** `askaway away [on|off]` (R19.50): the host's `away` preference, through the admin API. */
export const awayCommand: CliCommand = {
  name: 'away',
  summary: 'Say you are away from your desk: Claude Code waits for your reply from the phone',
  async run(argv) {
    const parsed = parseFlags('away', AWAY_USAGE, argv, { 'data-dir': { type: 'string' } }, true);
    if ('exit' in parsed) return parsed.exit;
    const [which, ...extra] = parsed.positionals;
    if (extra.length > 0 || (which !== undefined && which !== 'on' && which !== 'off'))
      return usageError('away', AWAY_USAGE, `expected "on" or "off", not "${parsed.positionals.join(' ')}"`);
    try {
      const target = findAdminTarget(process.env, parsed.values['data-dir']);
      const state =
        which === undefined
          ? await adminRequest(target, 'GET', '/away', AwayStateSchema)
          : await adminRequest(target, 'POST', `/away/${which}`, AwayStateSchema);
      process.stdout.write(said(state.away));
      return 0;
    } catch (error) {
      if (!(error instanceof AdminError)) throw error;
      process.stderr.write(`askaway away: ${error.message}\n`);
      return error.exitCode;
    }
  },
};

import { PairingCodeResponseSchema } from '../../lib/contracts';
import { AdminError, adminRequest, findAdminTarget } from './admin-client';
import { pairingQr, pairingTerms, phoneCanOpen } from './pairing-output';
import { parseFlags } from './parse-flags';
import { type CliCommand } from './types';

export const PAIR_USAGE = `Usage: askaway pair [--json] [--data-dir <dir>]

Prints a fresh one-time pairing link and its QR code for a phone or browser. Open the
link (or scan the code) on the device, name it and tap Pair: the device gets its own
credential, which \`askaway devices revoke\` takes back. A link works once, for the
host's --pair-ttl (default 10 minutes), and not after the host restarts.

Options:
  --json             Print {code, link, expiresAt} as JSON, without the QR code
  --data-dir <dir>   The running host's data dir (env ASKAWAY_DATA_DIR, default ~/.askaway)
  -h, --help         Show this help
`;

export const pairCommand: CliCommand = {
  name: 'pair',
  summary: 'Print a fresh one-time pairing link and QR code for a phone',
  async run(argv) {
    const parsed = parseFlags('pair', PAIR_USAGE, argv, { json: { type: 'boolean' }, 'data-dir': { type: 'string' } });
    if ('exit' in parsed) return parsed.exit;
    const { values } = parsed;
    try {
      const target = findAdminTarget(process.env, values['data-dir']);
      const pairing = await adminRequest(target, 'POST', '/pairing-codes', PairingCodeResponseSchema);
      if (values.json) {
        process.stdout.write(`${JSON.stringify(pairing)}\n`);
        return 0;
      }
      process.stdout.write(
        [
          `Pair a phone or browser with the Askaway host at ${target.url}:`,
          `  Link:  ${pairing.link}`,
          `  Code:  ${pairing.code}`,
          `  It ${pairingTerms(pairing)}.`,
          '',
          ...(phoneCanOpen(pairing.link)
            ? ['Scan to pair:', await pairingQr(pairing.link)]
            : [
                "No QR code: the link is this computer's own address, for its browser only. To pair a phone, start",
                'the host with --tailscale, --public-url or --host (see `askaway start --help`).',
                '',
              ]),
        ].join('\n'),
      );
      return 0;
    } catch (error) {
      if (!(error instanceof AdminError)) throw error;
      process.stderr.write(`askaway pair: ${error.message}\n`);
      return error.exitCode;
    }
  },
};

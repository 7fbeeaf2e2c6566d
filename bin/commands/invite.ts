import { joinCommand, JoinCodeResponseSchema, type JoinCodeResponse } from '../../lib/contracts';
import { AdminError, adminRequest, findAdminTarget, type AdminTarget } from './admin-client';
import { findGroup, personIds } from './team-lookup';
import { pairingQr, pairingTerms } from './pairing-output';
import { parseFlags } from './parse-flags';
import { type CliCommand } from './types';

export const INVITE_USAGE = `Usage: askaway invite [--for <email or id> | --for-group <name or id>] [--url <hub URL>] [--json]
                      [--data-dir <dir>]

Run on the hub (the always-on machine running \`askaway start\`). Prints a one-time join
code and the command to run on another machine, as text and as a QR code:

  askaway join <hub URL> <code>

That machine's hooks, \`askaway mcp\` and \`askaway ask\` then ask through this hub with
a credential of their own, and its questions show on your phone with its name.
The code works once, for the hub's --pair-ttl (default 10 minutes), and not after
the hub restarts. The other machine must reach this hub: start it with --tailscale
(the command then names https://<hub>.<tailnet>.ts.net, which any machine on the
tailnet reaches with nothing to set up), --host (e.g. its tailnet address) or
--public-url; see the README, "All your machines on one phone".

Options:
  --for <person>     On a hub with people (--oidc-issuer): the machine joins as this person's,
                     and so do its agents' questions (an email or id from \`askaway people\`).
                     Without it, a joined machine is the owner's
  --for-group <group> On a hub with people: a shared machine (a CI runner, a build box) of this
                     group (\`askaway groups\`): its questions go to every member
  --url <hub URL>    The address the other machine reaches this hub at, if the hub
                     does not know it (default: --public-url, else its LAN or own address)
  --json             Print {code, hubUrl, command, expiresAt} as JSON, without the QR code
  --data-dir <dir>   The running hub's data dir (env ASKAWAY_DATA_DIR, default ~/.askaway)
  -h, --help         Show this help
`;

export const inviteCommand: CliCommand = {
  name: 'invite',
  summary: 'Print a one-time code that joins another machine to this hub',
  async run(argv) {
    const parsed = parseFlags('invite', INVITE_USAGE, argv, {
      url: { type: 'string' },
      for: { type: 'string' },
      'for-group': { type: 'string' },
      json: { type: 'boolean' },
      'data-dir': { type: 'string' },
    });
    if ('exit' in parsed) return parsed.exit;
    const { values } = parsed;
    const url = values.url === undefined ? undefined : hubUrlProblem(values.url);
    if (typeof url === 'object') {
      process.stderr.write(`askaway invite: ${url.problem}\n\n${INVITE_USAGE}`);
      return 2;
    }
    try {
      if (values.for !== undefined && values['for-group'] !== undefined) {
        process.stderr.write(`askaway invite: give --for or --for-group, not both\n\n${INVITE_USAGE}`);
        return 2;
      }
      const target = findAdminTarget(process.env, values['data-dir']);
      const route = await joinCodeRoute(target, values.for, values['for-group']);
      const minted = await adminRequest(target, 'POST', route, JoinCodeResponseSchema);
      const invite: JoinCodeResponse =
        url === undefined ? minted : { ...minted, hubUrl: url, command: joinCommand(url, minted.code) };
      if (values.json) {
        process.stdout.write(`${JSON.stringify(invite)}\n`);
        return 0;
      }
      process.stdout.write(await formatInvite(invite));
      return 0;
    } catch (error) {
      if (!(error instanceof AdminError)) throw error;
      process.stderr.write(`askaway invite: ${error.message}\n`);
      return error.exitCode;
    }
  },
};

/** Where to mint the code: the owner's (plain), a person's (R21.39) or a group's shared machine's (R21.18). */
async function joinCodeRoute(
  target: AdminTarget,
  forPerson: string | undefined,
  forGroup: string | undefined,
): Promise<string> {
  if (forGroup !== undefined) return `/groups/${encodeURIComponent((await findGroup(target, forGroup)).id)}/join-codes`;
  if (forPerson === undefined) return '/join-codes';
  const [personId = ''] = await personIds(target, [forPerson]);
  return `/people/${encodeURIComponent(personId)}/join-codes`;
}

/** What a person reads: the command to copy, the code's terms, a warning when the address is this machine's only. */
export async function formatInvite(invite: JoinCodeResponse, now = new Date()): Promise<string> {
  const lines = [
    `Join another machine to the Askaway hub at ${invite.hubUrl}. On that machine, run:`,
    '',
    `  ${invite.command}`,
    '',
    `The code ${pairingTerms(invite, now)}.`,
    'The machine joins with its own name (its host name, or --name) and credential; `askaway machines` lists it.',
  ];
  if (isLoopback(invite.hubUrl)) {
    lines.push(
      '',
      `Note: ${invite.hubUrl} is this machine's loopback address; another machine cannot reach it. Start the hub`,
      'with --tailscale, --host <an address the other machine reaches> or --public-url, or pass --url.',
    );
  }
  lines.push('', 'Scan to copy the command:', await pairingQr(invite.command));
  return `${lines.join('\n')}\n`;
}

function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
  } catch {
    return false;
  }
}

/** The URL without a trailing slash, or what is wrong with it. */
function hubUrlProblem(value: string): string | { problem: string } {
  try {
    const parsed = new URL(value);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http(s)');
    if (parsed.username || parsed.password || parsed.search || parsed.hash) throw new Error('no credentials or query');
    return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return { problem: `--url must be an http(s) URL such as https://hub.example.ts.net, got "${value}"` };
  }
}

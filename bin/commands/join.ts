import { hostname } from 'node:os';
import path from 'node:path';
import * as z from 'zod/mini';
import {
  ApiErrorSchema,
  errorMessage,
  JOIN_API_PATH,
  JoinResponseSchema,
  machineNameFrom,
  NewMachineNameSchema,
  type JoinedHubFile,
} from '../../lib/contracts';
import { resolveDataDir } from '../../lib/runtime/host-address';
import { readJoinedHub, writeJoinedHub } from '../../lib/runtime/joined-hub';
import { describeConnectionFailure } from '../../lib/runtime/transport-errors';
import { requestJson, type JsonReply } from '../../lib/http/request-json';
import { parseFlags, usageError as printUsageError } from './parse-flags';
import { type CliCommand } from './types';

export const JOIN_USAGE = `Usage: askaway join <hub URL> <code> [--name <name>] [--data-dir <dir>]

Run on another machine with the command \`askaway invite\` printed on the hub. Exchanges
the one-time code for this machine's own credential and keeps it, with the hub's
address, in this machine's data dir (hub.json, readable by you only). From then on this
machine's hooks, \`askaway mcp\` and \`askaway ask\` ask through the hub, with no
environment variables; ASKAWAY_URL and ASKAWAY_TOKEN, when set, still win.
\`askaway status\` shows which hub this machine uses.

The hub's certificate is verified as Node does: for a hub with its own certificate, set
NODE_EXTRA_CA_CERTS to the CA that signed it.

Options:
  --name <name>      This machine's name on the phone (env ASKAWAY_MACHINE_NAME, default its host name)
  --data-dir <dir>   This machine's data dir (env ASKAWAY_DATA_DIR, default ~/.askaway)
  -h, --help         Show this help
`;

export const joinMachineCommand: CliCommand = {
  name: 'join',
  summary: 'Join this machine to a hub with a code from `askaway invite`',
  async run(argv) {
    const parsed = parseFlags(
      'join',
      JOIN_USAGE,
      argv,
      { name: { type: 'string' }, 'data-dir': { type: 'string' } },
      true,
    );
    if ('exit' in parsed) return parsed.exit;
    const { values, positionals } = parsed;
    const [rawUrl, code, ...extra] = positionals;
    if (rawUrl === undefined || code === undefined || extra.length > 0)
      return usageError('join takes the hub URL and the code, as `askaway invite` printed them');
    const hubUrl = parseHubUrl(rawUrl);
    if (hubUrl === null)
      return usageError(`the hub URL must be http(s), such as https://hub.example.ts.net; got "${rawUrl}"`);
    const name = z.safeParse(
      NewMachineNameSchema,
      values.name ?? machineNameFrom(process.env.ASKAWAY_MACHINE_NAME?.trim() || hostname()),
    );
    if (!name.success) return usageError(`--name: ${name.error.issues[0]?.message ?? 'not a usable name'}`);
    const dataDir = values['data-dir'] ? path.resolve(values['data-dir']) : resolveDataDir(process.env);

    let reply: JsonReply;
    try {
      reply = await requestJson(new URL(`${hubUrl}${JOIN_API_PATH}`), {
        method: 'POST',
        body: { code, name: name.data },
      });
    } catch (error) {
      process.stderr.write(
        `askaway join: the hub at ${hubUrl} is not reachable (${describeConnectionFailure(error)}). ` +
          'Is it running, and started with --tailscale, --host or --public-url so this machine can reach it?\n',
      );
      return 1;
    }
    const joined = JoinResponseSchema.safeParse(reply.json);
    if (reply.status !== 200 || !joined.success) {
      const refusal = ApiErrorSchema.safeParse(reply.json);
      const reason = refusal.success
        ? refusal.data.error.message
        : `it answered HTTP ${reply.status} with something that is not a join answer (is ${hubUrl} an Askaway hub?)`;
      process.stderr.write(`askaway join: ${hubUrl} refused: ${reason}\n`);
      return 1;
    }
    const previous = readJoinedHub(dataDir);
    const hub: JoinedHubFile = {
      url: hubUrl,
      credential: joined.data.credential,
      machine: joined.data.machine,
      hubName: joined.data.hubName,
      joinedAt: new Date().toISOString(),
    };
    let file: string;
    try {
      file = writeJoinedHub(dataDir, hub);
    } catch (error) {
      process.stderr.write(
        `askaway join: joined, but cannot write ${path.join(dataDir, 'hub.json')} (${errorMessage(error)}); ` +
          `revoke "${hub.machine.name}" on the hub (\`askaway machines revoke\`) and join again with a writable --data-dir.\n`,
      );
      return 1;
    }
    const lines = [
      `Joined ${hub.hubName} at ${hubUrl} as "${hub.machine.name}".`,
      `Hooks, \`askaway mcp\` and \`askaway ask\` on this machine now ask through it (${file}).`,
    ];
    if (previous.kind === 'joined' && previous.hub.url !== hubUrl)
      lines.push(
        `This replaces the join to ${previous.hub.hubName} at ${previous.hub.url}; revoke "${previous.hub.machine.name}" there.`,
      );
    const overrides = ['ASKAWAY_URL', 'ASKAWAY_TOKEN'].filter((key) => process.env[key]?.trim());
    if (overrides.length > 0)
      lines.push(
        `Note: ${overrides.join(' and ')} ${overrides.length > 1 ? 'are' : 'is'} set here and still win over the hub.`,
      );
    if (hubUrl.startsWith('http://') && !isLoopbackOrTailnet(hubUrl))
      lines.push(
        'Note: plain http: the credential travels unencrypted unless the network is (a tailnet is); prefer https.',
      );
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  },
};

function parseHubUrl(value: string): string | null {
  try {
    const parsed = new URL(value);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    if (parsed.username || parsed.password || parsed.search || parsed.hash) return null;
    return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
}

/** Loopback, or an address a tailnet (WireGuard) already encrypts: 100.64.0.0/10 or a `.ts.net` name. */
function isLoopbackOrTailnet(url: string): boolean {
  const host = new URL(url).hostname;
  if (host === 'localhost' || host === '[::1]' || /^127\./.test(host) || host.endsWith('.ts.net')) return true;
  const match = /^100\.(\d+)\./.exec(host);
  return match !== null && Number(match[1]) >= 64 && Number(match[1]) <= 127;
}

function usageError(message: string): number {
  return printUsageError('join', JOIN_USAGE, message);
}

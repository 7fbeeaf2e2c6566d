import { execFile } from 'node:child_process';
import { errorMessage, parseBoundedJson, terminalSafe } from '../../lib/contracts';

/*
 * `askaway start --tailscale`: the hub's port served over the tailnet with the tailnet's own certificate.
 *
 * What this relies on, as Tailscale documents it (tailscale.com, "tailscale serve command" in the CLI
 * reference, for clients 1.52 and later, and the `ipnstate.Status` type that `tailscale status --json` prints):
 * - `tailscale status --json` prints `BackendState` ("Running" once logged in and connected; "NeedsLogin",
 *   "Stopped", "NeedsMachineAuth", "Starting", "NoState" otherwise), `Self.DNSName` (the machine's MagicDNS
 *   name with a trailing dot, "studio.tail1234.ts.net."), `CurrentTailnet.MagicDNSSuffix` and
 *   `.MagicDNSEnabled`, and `CertDomains` (the names the tailnet issues certificates for; null while HTTPS
 *   certificates are off in the admin console, when `tailscale serve` would stop to ask for consent).
 * - `tailscale serve --bg --https=443 <target>` serves the target at https://<DNSName>/ with a certificate
 *   for that name, and keeps serving after the command returns (`--bg`).
 * - `tailscale serve --https=443 off` removes that one handler (not `tailscale serve reset`, which would
 *   drop everything else the machine serves).
 * - `tailscale serve status --json` prints the serve config: `TCP` by port ("443": {"HTTPS": true}) and
 *   `Web` by "<name>:443" with `Handlers["/"].Proxy` the target; `{}` when nothing is served.
 * The real CLI cannot log in on the test machines; tests/tailscale stand-ins answer like it (bin/tailscale.test.ts).
 */

/** How long one `tailscale` call may take: status is local; serve may fetch a certificate. */
const STATUS_TIMEOUT_MS = 10_000;
const SERVE_TIMEOUT_MS = 60_000;
/** `status --json` lists every peer: a large tailnet prints a few MiB. */
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
const HTTPS_PORT = '443';

export class TailscaleError extends Error {}

export interface TailnetName {
  /** The machine's MagicDNS name without its trailing dot: studio.tail1234.ts.net. */
  name: string;
  /** https://<name>: what phones open and what the hub puts in its pairing links. */
  url: string;
}

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Why it did not run or did not finish (missing binary, timeout). */
  failure?: 'missing' | 'timeout' | string;
}

export interface TailscaleCli {
  run(args: string[], timeoutMs: number): Promise<RunResult>;
}

/** The `tailscale` on PATH (`env.PATH`), each call bounded in time and output. */
export function tailscaleOnPath(env: NodeJS.ProcessEnv = process.env): TailscaleCli {
  return {
    run: (args, timeoutMs) =>
      new Promise((resolve) => {
        execFile(
          'tailscale',
          args,
          { env, timeout: timeoutMs, maxBuffer: MAX_OUTPUT_BYTES, windowsHide: true },
          (error, stdout, stderr) => {
            if (error === null) return resolve({ code: 0, stdout, stderr });
            const failure =
              (error as NodeJS.ErrnoException).code === 'ENOENT'
                ? 'missing'
                : error.killed
                  ? 'timeout'
                  : typeof error.code === 'number'
                    ? undefined
                    : errorMessage(error);
            resolve({ code: typeof error.code === 'number' ? error.code : null, stdout, stderr, failure });
          },
        );
      }),
  };
}

/**
 * The machine's tailnet name, once `tailscale` is installed, logged in and can issue a certificate for it;
 * otherwise a TailscaleError that says what to do. Reads only: a refused start changes nothing (R12.11).
 */
export async function tailnetName(cli: TailscaleCli): Promise<TailnetName> {
  const result = await cli.run(['status', '--json'], STATUS_TIMEOUT_MS);
  if (result.failure === 'missing')
    throw new TailscaleError(
      '--tailscale needs the `tailscale` command, and there is none on PATH. Install Tailscale ' +
        '(https://tailscale.com/download), log in with `tailscale up`, put this phone on the same tailnet, and start again.',
    );
  if (result.failure === 'timeout')
    throw new TailscaleError('`tailscale status --json` did not answer within 10 s; is tailscaled running?');
  // Logged out, `status --json` still prints the state (and exits 0); a stopped daemon makes it fail.
  const parsed = parseBoundedJson(result.stdout);
  if (!parsed.ok || !isRecord(parsed.value))
    throw new TailscaleError(
      `\`tailscale status --json\` failed${result.code !== null ? ` (exit ${result.code})` : ''}: ${said(result) || 'no JSON status'}. ` +
        'Is tailscaled running (`tailscale up`)?',
    );
  const status = parsed.value;
  const state = typeof status.BackendState === 'string' ? status.BackendState : 'unknown';
  if (state !== 'Running')
    throw new TailscaleError(
      `Tailscale is not connected on this machine (its state is "${terminalSafe(state)}"). ` +
        'Log in with `tailscale up` (or `tailscale login`), then start again.',
    );
  const self = isRecord(status.Self) ? status.Self : {};
  const dnsName = typeof self.DNSName === 'string' ? self.DNSName.replace(/\.$/, '').toLowerCase() : '';
  const tailnet = isRecord(status.CurrentTailnet) ? status.CurrentTailnet : {};
  if (dnsName === '' || tailnet.MagicDNSEnabled === false || !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(dnsName))
    throw new TailscaleError(
      'This machine has no MagicDNS name on its tailnet, so a phone has no name to open. Turn MagicDNS on ' +
        '(Tailscale admin console → DNS), then start again.',
    );
  // Present but without our name: certificates are off, and `tailscale serve` would stop to ask in a browser.
  if ('CertDomains' in status && !(Array.isArray(status.CertDomains) && status.CertDomains.includes(dnsName)))
    throw new TailscaleError(
      `Your tailnet does not issue HTTPS certificates for ${dnsName} yet. Turn on HTTPS certificates ` +
        '(Tailscale admin console → DNS → HTTPS Certificates), then start again.',
    );
  return { name: dnsName, url: `https://${dnsName}` };
}

/**
 * Refuses to take over port 443 of the tailnet name when it already serves something else: `serve --bg`
 * would replace it, and stopping would turn it off. A handler left by an earlier hub on the same target is ours.
 */
export async function checkHttpsPortFree(cli: TailscaleCli, tailnet: TailnetName, target: string | undefined) {
  const result = await cli.run(['serve', 'status', '--json'], STATUS_TIMEOUT_MS);
  if (result.failure !== undefined || result.code !== 0)
    throw new TailscaleError(`\`tailscale serve status --json\` failed: ${said(result) || 'no answer'}.`);
  const parsed = parseBoundedJson(result.stdout.trim() === '' ? '{}' : result.stdout);
  if (!parsed.ok || !isRecord(parsed.value))
    throw new TailscaleError('`tailscale serve status --json` printed something that is not its JSON config.');
  const tcp = isRecord(parsed.value.TCP) ? parsed.value.TCP : {};
  if (!(HTTPS_PORT in tcp)) return;
  const web = isRecord(parsed.value.Web) ? parsed.value.Web : {};
  const site = web[`${tailnet.name}:${HTTPS_PORT}`];
  const handlers = isRecord(site) && isRecord(site.Handlers) ? site.Handlers : {};
  const root = isRecord(handlers['/']) ? handlers['/'] : {};
  const proxy = typeof root.Proxy === 'string' ? root.Proxy : undefined;
  if (target !== undefined && proxy === target && Object.keys(handlers).length === 1) return;
  throw new TailscaleError(
    `${tailnet.url} already serves ${proxy === undefined ? 'something' : terminalSafe(proxy)} (\`tailscale serve status\`). ` +
      'Askaway would replace it and turn it off when it stops: remove it with `tailscale serve --https=443 off`, or use ' +
      '--public-url with an address of your own.',
  );
}

/** Serves `target` (the hub's loopback URL) at https://<tailnet name>/ in the background. */
export async function serveOverTailnet(cli: TailscaleCli, target: string): Promise<void> {
  const result = await cli.run(['serve', '--bg', `--https=${HTTPS_PORT}`, target], SERVE_TIMEOUT_MS);
  if (result.failure === undefined && result.code === 0) return;
  const detail =
    result.failure === 'timeout'
      ? `it did not finish within 60 s (it may be waiting for consent in a browser): ${said(result) || 'it printed nothing'}`
      : said(result) || `exit ${result.code ?? 'unknown'}`;
  const access = /access denied|permission/i.test(`${result.stderr}${result.stdout}`)
    ? ' On Linux, let your user manage Tailscale once: `sudo tailscale set --operator=$USER`.'
    : '';
  throw new TailscaleError(`\`tailscale serve --bg --https=443 ${target}\` failed: ${detail}.${access}`);
}

/** Whether `publicUrl` (as given to --public-url) names the tailnet address; an unreadable one does not. */
export function isTailnetUrl(publicUrl: string, tailnet: TailnetName): boolean {
  try {
    return new URL(publicUrl).origin === tailnet.url;
  } catch {
    return false;
  }
}

/** Undoes serveOverTailnet: only the handler on 443, nothing else the machine serves. */
export async function stopServing(cli: TailscaleCli): Promise<string | undefined> {
  const result = await cli.run(['serve', `--https=${HTTPS_PORT}`, 'off'], STATUS_TIMEOUT_MS);
  if (result.failure === undefined && result.code === 0) return undefined;
  return `\`tailscale serve --https=443 off\` failed (${said(result) || result.failure || `exit ${result.code}`}); run it yourself.`;
}

/** What the CLI said, one line, escaped for the terminal (R12.8). */
function said(result: RunResult): string {
  const text = `${result.stderr}\n${result.stdout}`.trim().replace(/\s+/g, ' ');
  return terminalSafe(text.length > 400 ? `${text.slice(0, 400)}…` : text);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../../lib/host/test-support/test-host';

/**
 * A stand-in for the `tailscale` CLI, put first on PATH. The real one cannot log in on the test machines,
 * so this one records its arguments (one call a line) and answers as Tailscale documents its CLI
 * (`tailscale status --json` prints an `ipnstate.Status`; `tailscale serve --bg --https=443 <target>`
 * serves and returns; `tailscale serve --https=443 off` removes that handler; `tailscale serve status
 * --json` prints the serve config, `{}` when empty). Anything else exits 64, so a guessed flag fails a test.
 */
export interface TailscaleStandIn {
  /** The folder to put first on PATH. */
  dir: string;
  /** The calls so far, as `status --json`, `serve --bg --https=443 http://127.0.0.1:4417`, … */
  calls(): string[];
  /** What `status --json` prints from now on. */
  setStatus(status: unknown): void;
  /** What `serve status --json` prints from now on (the stand-in also writes it on `serve --bg`). */
  setServeConfig(config: unknown): void;
  /** From now on `status --json` (a stopped tailscaled) or `serve --bg` (no operator rights) fails with `stderr`. */
  fail(command: 'status' | 'serve', stderr: string): void;
}

export const STAND_IN_DNS_NAME = 'studio.tail1234.ts.net';

/** `tailscale status --json` of a logged-in machine, trimmed to the fields Tailscale documents and we read. */
export function runningStatus(dnsName = STAND_IN_DNS_NAME): Record<string, unknown> {
  const suffix = dnsName.split('.').slice(1).join('.');
  return {
    Version: '1.80.2-t1234abcd',
    TUN: true,
    BackendState: 'Running',
    AuthURL: '',
    TailscaleIPs: ['100.101.102.103', 'fd7a:115c:a1e0::1'],
    Self: {
      ID: 'nABCDEF1CNTRL',
      HostName: dnsName.split('.')[0],
      DNSName: `${dnsName}.`,
      OS: 'linux',
      TailscaleIPs: ['100.101.102.103', 'fd7a:115c:a1e0::1'],
      Online: true,
    },
    Health: [],
    MagicDNSSuffix: suffix,
    CurrentTailnet: { Name: 'someone@example.com', MagicDNSSuffix: suffix, MagicDNSEnabled: true },
    CertDomains: [dnsName],
    Peer: {},
    User: {},
  };
}

/** A logged-out machine: `tailscale status --json` still answers, with BackendState "NeedsLogin" and no name. */
export function loggedOutStatus(): Record<string, unknown> {
  return {
    Version: '1.80.2-t1234abcd',
    BackendState: 'NeedsLogin',
    AuthURL: '',
    TailscaleIPs: null,
    Self: { ID: '', HostName: 'studio', DNSName: '', OS: 'linux', TailscaleIPs: null, Online: false },
    Health: ['You are logged out.'],
    MagicDNSSuffix: '',
    CurrentTailnet: null,
    CertDomains: null,
    Peer: null,
    User: null,
  };
}

export function tailscaleStandIn(status: unknown = runningStatus()): TailscaleStandIn {
  const dir = tempDir('askaway-tailscale-');
  const log = path.join(dir, 'calls.log');
  const statusFile = path.join(dir, 'status.json');
  const serveFile = path.join(dir, 'serve.json');
  fs.writeFileSync(log, '');
  const script = `#!/bin/sh
printf '%s\\n' "$*" >> '${log}'
case "$*" in
  "status --json"|"serve --bg --https=443 "*)
    if [ -f '${dir}/'"$1"'.fail' ]; then cat '${dir}/'"$1"'.fail' >&2; exit 1; fi ;;
esac
case "$*" in
  "status --json") cat '${statusFile}' ;;
  "serve status --json") if [ -f '${serveFile}' ]; then cat '${serveFile}'; else echo '{}'; fi ;;
  "serve --bg --https=443 "*)
    name=$(sed -n 's/.*"DNSName": *"\\([^"]*\\)\\.".*/\\1/p' '${statusFile}' | head -n 1)
    printf '{"TCP":{"443":{"HTTPS":true}},"Web":{"%s:443":{"Handlers":{"/":{"Proxy":"%s"}}}}}\\n' "$name" "$4" > '${serveFile}'
    printf 'Available within your tailnet:\\n\\nhttps://%s/\\n|-- proxy %s\\n\\nServe started and running in the background.\\nTo disable the proxy, run: tailscale serve --https=443 off\\n' "$name" "$4" ;;
  "serve --https=443 off") rm -f '${serveFile}' ;;
  *) echo "tailscale stand-in: unexpected arguments: $*" >&2; exit 64 ;;
esac
`;
  fs.writeFileSync(path.join(dir, 'tailscale'), script, { mode: 0o755 });
  const standIn: TailscaleStandIn = {
    dir,
    calls: () => fs.readFileSync(log, 'utf8').split('\n').filter(Boolean),
    setStatus: (value) => fs.writeFileSync(statusFile, JSON.stringify(value, null, 2)),
    setServeConfig: (config) => fs.writeFileSync(serveFile, JSON.stringify(config)),
    fail: (command, stderr) => fs.writeFileSync(path.join(dir, `${command}.fail`), `${stderr}\n`),
  };
  standIn.setStatus(status);
  return standIn;
}

import { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { networkInterfaces } from 'node:os';
import { type Duplex } from 'node:stream';
import { type ApiError } from '../../contracts';

/** How long the machine's own addresses are trusted before they are read again (a new DHCP lease). */
const INTERFACES_TTL_MS = 5_000;

export interface AllowedHostsOptions {
  /** The address the host listens on (`--host`); a wildcard means every address of this machine. */
  bindHost: string;
  /** `--public-url`: the name a tunnel or proxy sends (tailscale serve, Cloudflare). */
  publicUrl?: string;
  /** `--allowed-host`: more names this host answers for (a LAN name, a reverse proxy's). */
  names?: readonly string[];
  /** This machine's addresses; the OS's by default. */
  interfaceAddresses?: () => string[];
}

/**
 * The names this host answers for (R12.4). A DNS-rebinding page points a name of its own at this
 * machine, so its requests carry that name in `Host`; refusing every name but ours keeps such a page
 * from reading the host's answers or spending a pairing code, whatever the Origin says.
 */
export class AllowedHosts {
  private readonly names: Set<string>;
  private readonly wildcard: boolean;
  private addresses: { at: number; set: Set<string> } | undefined;

  constructor(private readonly options: AllowedHostsOptions) {
    const bind = normalizeHost(options.bindHost);
    this.wildcard = bind === '0.0.0.0' || bind === '::' || bind === '';
    this.names = new Set(
      [
        ...(this.wildcard ? [] : [bind]),
        ...(options.publicUrl !== undefined ? [normalizeHost(new URL(options.publicUrl).hostname)] : []),
        ...(options.names ?? []).map(normalizeHost),
      ].filter((name) => name !== ''),
    );
  }

  /** Whether a request with this `Host` header is for us. A request without one (HTTP/1.0 tools) is. */
  allows(hostHeader: string | undefined): boolean {
    if (hostHeader === undefined) return true;
    const name = normalizeHost(hostOf(hostHeader));
    if (isLoopbackName(name) || this.names.has(name)) return true;
    return this.wildcard && this.machineAddresses().has(name);
  }

  private machineAddresses(): Set<string> {
    const now = Date.now();
    if (!this.addresses || now - this.addresses.at > INTERFACES_TTL_MS) {
      const read =
        this.options.interfaceAddresses ??
        (() =>
          Object.values(networkInterfaces())
            .flat()
            .map((entry) => entry?.address ?? ''));
      this.addresses = { at: now, set: new Set(read().map(normalizeHost)) };
    }
    return this.addresses.set;
  }
}

/** The name part of a `Host` header: `[::1]:4417` → `::1`, `example.com:80` → `example.com`. */
function hostOf(header: string): string {
  const value = header.trim();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return value.slice(1, end < 0 ? undefined : end);
  }
  const colon = value.lastIndexOf(':');
  return colon >= 0 && value.indexOf(':') === colon ? value.slice(0, colon) : value;
}

function normalizeHost(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}

function isLoopbackName(name: string): boolean {
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name) ||
    name === '::1' ||
    name === '0:0:0:0:0:0:0:1'
  );
}

function misdirected(hostHeader: string): { status: 421; body: string } {
  const body: ApiError = {
    error: {
      code: 'misdirected',
      message:
        `This Askaway host does not answer for "${hostOf(hostHeader).slice(0, 255)}". If that name is yours, ` +
        'start the host with --allowed-host <name> (or --public-url); otherwise a web page may be trying DNS rebinding.',
    },
  };
  return { status: 421, body: JSON.stringify(body) };
}

/**
 * Puts the Host check in front of every listener the server has now (the PWA, the APIs, socket.io's
 * handshake and its WebSocket upgrade), so nothing runs for a request addressed to another name (R12.4).
 */
export function guardHostHeader(
  server: Pick<Server, 'listeners' | 'removeAllListeners' | 'on'>,
  allowed: AllowedHosts,
): void {
  const requestListeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  const upgradeListeners = server.listeners('upgrade') as ((
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
  ) => void)[];
  server.removeAllListeners('request');
  server.removeAllListeners('upgrade');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const host = req.headers.host;
    if (!allowed.allows(host)) {
      const refusal = misdirected(host ?? '');
      res.writeHead(refusal.status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(refusal.body);
      return;
    }
    for (const listener of requestListeners) listener(req, res);
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const host = req.headers.host;
    if (!allowed.allows(host)) {
      const refusal = misdirected(host ?? '');
      socket.on('error', () => undefined);
      socket.end(
        `HTTP/1.1 421 Misdirected Request\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(refusal.body)}\r\nConnection: close\r\n\r\n${refusal.body}`,
      );
      return;
    }
    for (const listener of upgradeListeners) listener(req, socket, head);
  });
}

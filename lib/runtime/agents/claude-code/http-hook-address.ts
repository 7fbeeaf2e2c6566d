import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * Claude Code (2.1.332) refuses an HTTP hook whose host is, or resolves to, an
 * address outside the public internet, except loopback ("HTTP hook blocked: … is
 * not a public address. Loopback (127.0.0.1, ::1) is allowed for local dev.").
 * This mirrors its classification so `askaway hook install --http` never writes a
 * hook Claude Code would block (R11.6).
 */

type Bytes = number[];

function ipv4Bytes(address: string): Bytes | undefined {
  const parts = address.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255)) return undefined;
  return parts.map(Number);
}

function ipv6Bytes(address: string): Bytes | undefined {
  let text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  let tail: Bytes = [];
  const lastColon = text.lastIndexOf(':');
  const v4 = ipv4Bytes(text.slice(lastColon + 1));
  if (v4) {
    tail = v4;
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string | undefined) => (half ? half.split(':') : []);
  const head = groups(halves[0]);
  const rest = groups(halves[1]);
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...Array<string>(halves.length === 1 ? 0 : missing).fill('0'), ...rest];
  if (!all.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return undefined;
  const bytes = all.flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 255];
  });
  return v4 ? [...bytes.slice(0, 12), ...tail] : bytes;
}

/** Cloud metadata endpoints Claude Code names one by one. */
const METADATA_V4 = new Set(['100.100.100.200', '168.63.129.16', '192.0.0.192']);

/** Why Claude Code blocks an IPv4 address for HTTP hooks, or undefined (public, or loopback). */
function blockedV4([a = 0, b = 0, c = 0, d = 0]: Bytes): string | undefined {
  if (a === 127) return undefined;
  if (a === 0) return 'this-network (0.0.0.0/8)';
  if (a === 10) return 'private (10.0.0.0/8)';
  if (a === 100 && b >= 64 && b <= 127) return 'carrier-grade NAT (100.64.0.0/10)';
  if (a === 169 && b === 254) return 'link-local (169.254.0.0/16)';
  if (a === 172 && b >= 16 && b <= 31) return 'private (172.16.0.0/12)';
  if (a === 192 && b === 168) return 'private (192.168.0.0/16)';
  if (METADATA_V4.has(`${a}.${b}.${c}.${d}`)) return 'a cloud metadata address';
  return undefined;
}

const isZero = (bytes: Bytes) => bytes.every((byte) => byte === 0);

/** IPv4 addresses carried inside an IPv6 one (mapped, compatible, NAT64, 6to4, ISATAP), as Claude Code reads them. */
function embeddedV4(bytes: Bytes): Bytes[] {
  const found: Bytes[] = [];
  if (bytes[0] === 0x20 && bytes[1] === 0x02) found.push(bytes.slice(2, 6));
  const zeroPrefix = isZero(bytes.slice(0, 10));
  const mapped = zeroPrefix && bytes[10] === 0xff && bytes[11] === 0xff;
  const compatible = zeroPrefix && bytes[10] === 0 && bytes[11] === 0;
  const nat64 =
    bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && isZero(bytes.slice(4, 12));
  const isatap = (bytes[8] === 0 || bytes[8] === 2) && bytes[9] === 0 && bytes[10] === 0x5e && bytes[11] === 0xfe;
  if (mapped || compatible || nat64 || isatap) found.push(bytes.slice(12, 16));
  return found;
}

/** Why Claude Code blocks an IPv6 address for HTTP hooks, or undefined. */
function blockedV6(bytes: Bytes): string | undefined {
  const [a = 0, b = 0] = bytes;
  const onlyLast = isZero(bytes.slice(0, 15));
  if (onlyLast && bytes[15] === 1) return undefined; // ::1
  if (onlyLast && bytes[15] === 0) return 'unspecified (::)';
  if (a === 0xfc || a === 0xfd) return 'unique local (fc00::/7)';
  if (a === 0xfe && b >= 0x80 && b <= 0xbf) return 'link-local (fe80::/10)';
  if (a === 0 && b === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && bytes[4] === 0 && bytes[5] === 1) {
    return 'local-use NAT64 (64:ff9b:1::/48)';
  }
  const mapped = isZero(bytes.slice(0, 10)) && bytes[10] === 0xff && bytes[11] === 0xff;
  for (const v4 of embeddedV4(bytes)) {
    // Loopback is allowed only as itself or IPv4-mapped; inside 6to4 or NAT64 Claude Code blocks it too.
    if (v4[0] === 127) {
      if (!mapped) return `an IPv6 form of ${v4.join('.')}`;
      continue;
    }
    const reason = blockedV4(v4);
    if (reason !== undefined) return `${reason}, inside an IPv6 address`;
  }
  return undefined;
}

/** Why Claude Code would block an HTTP hook to this IP address, or undefined when it allows it. */
export function blockedHookAddress(address: string): string | undefined {
  const family = isIP(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  if (family === 4) {
    const bytes = ipv4Bytes(address);
    return bytes ? blockedV4(bytes) : undefined;
  }
  if (family === 6) {
    const bytes = ipv6Bytes(address);
    return bytes ? blockedV6(bytes) : 'an IPv6 address that cannot be read';
  }
  return undefined;
}

export type Resolve = (hostname: string) => Promise<string[]>;

const resolveAll: Resolve = async (hostname) => (await lookup(hostname, { all: true })).map((entry) => entry.address);

/**
 * Why Claude Code would refuse an HTTP hook to `url`, or null. A host name is
 * resolved as Claude Code resolves it when the hook runs: any blocked address
 * blocks it. A name that does not resolve here is not refused (it may resolve
 * where Claude Code runs).
 */
export async function httpHookUrlProblem(url: string, resolve: Resolve = resolveAll): Promise<string | null> {
  let hostname: string;
  try {
    hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return `${url} is not a URL`;
  }
  if (isIP(hostname) !== 0) {
    const reason = blockedHookAddress(hostname);
    return reason === undefined ? null : `${hostname} is ${reason}`;
  }
  let addresses: string[];
  try {
    addresses = await resolve(hostname);
  } catch {
    return null;
  }
  for (const address of addresses) {
    const reason = blockedHookAddress(address);
    if (reason !== undefined) return `${hostname} resolves to ${address}, ${reason}`;
  }
  return null;
}

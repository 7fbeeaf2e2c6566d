import { type IncomingMessage } from 'node:http';
import net from 'node:net';

/** Where a request came from: the peer's address, or behind trusted proxies the client's they forwarded. */
export type ClientAddressOf = (req: IncomingMessage) => string;

/** The longest X-Forwarded-For read: a proxy chain is a handful of hops, and anything past this is noise. */
const MAX_FORWARDED_HOPS = 16;

/**
 * A trusted proxy, as `--trusted-proxy` gives it: an address (`10.0.0.5`, `fd00::1`) or a CIDR block
 * (`10.0.0.0/8`, `fd00::/8`). Throws with a message for anything else.
 */
export function parseTrustedProxy(value: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } {
  const [address = '', prefixText, extra] = value.trim().split('/');
  const version = net.isIP(address);
  const maxPrefix = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? maxPrefix : Number(prefixText);
  if (version === 0 || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > maxPrefix)
    throw new Error(`a trusted proxy is an IP address or a CIDR block (10.0.0.0/8, fd00::/8), got "${value}"`);
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/**
 * The client's address (R20.49). With no trusted proxy it is the peer's, always: a client can write any
 * X-Forwarded-For, so a hub reached directly must not read it. Behind proxies named with `--trusted-proxy`
 * (nginx, HAProxy, a cloud load balancer), the header is read from the right, each trusted hop skipped, and the
 * first address no trusted proxy holds is the client's: what a client wrote itself is left of it, unread. A
 * malformed entry ends the walk at the last trusted hop.
 */
export function clientAddressOf(trustedProxies: readonly string[]): ClientAddressOf {
  const trusted = new net.BlockList();
  for (const proxy of trustedProxies) {
    const { address, prefix, family } = parseTrustedProxy(proxy);
    trusted.addSubnet(address, prefix, family);
  }
  const isTrusted = (address: string) => {
    const version = net.isIP(address);
    return version !== 0 && trusted.check(address, version === 4 ? 'ipv4' : 'ipv6');
  };
  return (req) => {
    let address = plain(req.socket.remoteAddress ?? 'unknown');
    if (trustedProxies.length === 0 || !isTrusted(address)) return address;
    const header = req.headers['x-forwarded-for'];
    const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
      .split(',')
      .map((hop) => plain(hop.trim()))
      .filter((hop) => hop !== '')
      .slice(-MAX_FORWARDED_HOPS)
      .reverse();
    for (const hop of hops) {
      if (net.isIP(hop) === 0) break;
      address = hop;
      if (!isTrusted(hop)) break;
    }
    return address;
  };
}

/** `::ffff:10.0.0.5` (an IPv4 client on a dual-stack socket) is `10.0.0.5`. */
function plain(address: string): string {
  return address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
}

/**
 * Where the host may post an ntfy topic (R12.15) or a Web Push (R12.20). A device may only name an `https` URL
 * on a public address; one on this machine, the LAN or plain `http` comes from the owner, on the host's CLI.
 * Pure: the same classes are checked again on the addresses a name resolves to at send time.
 */

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'carrier-grade NAT'
  | 'unique-local'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

/** `address` is an IPv4 or IPv6 literal (no brackets); undefined when it is neither. */
export function classifyAddress(address: string): AddressClass | undefined {
  const v4 = parseIpv4(address);
  if (v4 !== undefined) return classifyIpv4(v4);
  const v6 = parseIpv6(address);
  return v6 === undefined ? undefined : classifyIpv6(v6);
}

/** Why a device may not set this topic (one sentence), or undefined when it may. */
export function deviceTopicRefusal(raw: string): string | undefined {
  return publicHttpsRefusal(raw, 'A topic set from a device', OWNER_HINT);
}

/**
 * Why a device may not subscribe Web Push at this endpoint (R12.20), or undefined when it may: push services
 * live on https at public addresses, the same classes as a device's ntfy topic.
 */
export function deviceWebPushRefusal(raw: string): string | undefined {
  return publicHttpsRefusal(raw, 'A push endpoint', PUSH_OWNER_HINT);
}

function publicHttpsRefusal(raw: string, what: string, hint: string): string | undefined {
  const url = parseUrl(raw);
  if (!url) return 'Not a URL';
  if (url.protocol !== 'https:') return `${what} must be https://. ${hint}`;
  const credentials = credentialsRefusal(url);
  if (credentials) return credentials;
  const host = bareHost(url.hostname);
  const kind = classifyAddress(host);
  if (kind !== undefined) {
    if (parseIpv4(host) !== undefined && rawHost(raw) !== host)
      return `${rawHost(raw) || host} is a numeric form of the address ${host}: write it as a name or a dotted address`;
    return kind === 'public' ? undefined : `${host} is a ${kind} address. ${hint}`;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is this machine. ${hint}`;
  if (host.endsWith('.local')) return `${host} is a LAN (mDNS) name. ${hint}`;
  if (!host.includes('.')) return `${host} is not a public name. ${hint}`;
  return undefined;
}

/** Why the owner may not set this topic: only a URL the host cannot post to. */
export function ownerTopicRefusal(raw: string): string | undefined {
  const url = parseUrl(raw);
  if (!url) return 'Not a URL';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'A topic must be an http:// or https:// URL';
  return credentialsRefusal(url);
}

/** What anyone but the topic's owner sees of it: where it goes, never the topic (whoever knows a topic reads it). */
export function redactTopic(raw: string): string {
  const url = parseUrl(raw);
  return url ? `${url.origin}/…` : '…';
}

const OWNER_HINT =
  'A topic on this machine, the LAN or plain http:// can only be set on the host: askaway ntfy set <url>';
const PUSH_OWNER_HINT =
  'A push service on this machine, the LAN or plain http:// is the owner’s to allow: askaway start --allow-private-push';

function parseUrl(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

/** fetch refuses URLs with credentials; ntfy takes a token in the query (`?auth=`) instead. */
function credentialsRefusal(url: URL): string | undefined {
  return url.username || url.password ? 'A topic URL must not carry a user name or password' : undefined;
}

/** The host as the URL parser normalized it, without IPv6 brackets or a trailing dot. */
function bareHost(hostname: string): string {
  const unbracketed = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return unbracketed.replace(/\.+$/, '').toLowerCase();
}

/** The host as it was written, before the parser turned `0x7f.1` or `2130706433` into `127.0.0.1`. */
function rawHost(raw: string): string {
  const authority = /^[a-z][a-z0-9+.-]*:[/\\]*([^/\\?#]*)/i.exec(raw.trim())?.[1] ?? '';
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  const withoutPort = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '');
  return bareHost(withoutPort);
}

function parseIpv4(address: string): number | undefined {
  const parts = address.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^(0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255))
    return undefined;
  return parts.reduce((value, part) => value * 256 + Number(part), 0);
}

const inV4 = (value: number, base: string, bits: number): boolean => {
  const start = parseIpv4(base) ?? 0;
  const size = 2 ** (32 - bits);
  return value >= start && value < start + size;
};

function classifyIpv4(value: number): AddressClass {
  if (inV4(value, '0.0.0.0', 8)) return 'unspecified';
  if (inV4(value, '127.0.0.0', 8)) return 'loopback';
  if (inV4(value, '10.0.0.0', 8) || inV4(value, '172.16.0.0', 12) || inV4(value, '192.168.0.0', 16)) return 'private';
  if (inV4(value, '169.254.0.0', 16)) return 'link-local';
  if (inV4(value, '100.64.0.0', 10)) return 'carrier-grade NAT';
  if (inV4(value, '224.0.0.0', 4)) return 'multicast';
  const reserved: [string, number][] = [
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['240.0.0.0', 4],
  ];
  return reserved.some(([base, bits]) => inV4(value, base, bits)) ? 'reserved' : 'public';
}

/** Eight 16-bit groups; an embedded dotted IPv4 tail (`::ffff:1.2.3.4`) and a zone (`%eth0`) are understood. */
function parseIpv6(address: string): number[] | undefined {
  let text = address.replace(/%.*$/, '');
  if (!text.includes(':') || !/^[0-9a-f:.]+$/i.test(text)) return undefined;
  const tail = /(?:^|:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail?.[1]) {
    const v4 = parseIpv4(tail[1]);
    if (v4 === undefined) return undefined;
    text = `${text.slice(0, text.length - tail[1].length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
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
  return all.map((group) => parseInt(group, 16));
}

function classifyIpv6(groups: number[]): AddressClass {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const v4At = (high: number, low: number) => classifyIpv4(high * 65536 + low);
  const zeroUpTo = (count: number) => groups.slice(0, count).every((group) => group === 0);
  if (zeroUpTo(8)) return 'unspecified';
  if (zeroUpTo(7) && g7 === 1) return 'loopback';
  // IPv4-mapped (::ffff:0:0/96), IPv4-compatible (::/96), NAT64 (64:ff9b::/96) and 6to4 (2002::/16) carry an IPv4.
  if (zeroUpTo(5) && (g5 === 0xffff || g5 === 0)) return v4At(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4At(g6, g7);
  if (g0 === 0x2002) return v4At(g1, g2);
  if ((g0 & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xffc0) === 0xfec0) return 'private';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  // Teredo (2001::/32) hides an IPv4; documentation (2001:db8::/32); only 2000::/3 is global unicast.
  if (g0 === 0x2001 && (g1 === 0 || g1 === 0xdb8)) return 'reserved';
  return (g0 & 0xe000) === 0x2000 ? 'public' : 'reserved';
}

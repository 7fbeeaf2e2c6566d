/**
 * ntfy topics a device may not set (R12.15), one or more per address family: tests and the hostile drill
 * send each from a device credential.
 */
export const REFUSED_DEVICE_TOPICS: readonly { family: string; url: string }[] = [
  { family: 'plain http', url: 'http://ntfy.sh/askaway' },
  { family: 'loopback', url: 'https://127.0.0.1/t' },
  { family: 'loopback, port', url: 'https://127.0.0.1:8080/t' },
  { family: 'loopback, short form', url: 'https://127.1/t' },
  { family: 'loopback, decimal', url: 'https://2130706433/t' },
  { family: 'loopback, hex', url: 'https://0x7f000001/t' },
  { family: 'loopback, octal', url: 'https://0177.0.0.1/t' },
  { family: 'loopback, trailing dot', url: 'https://127.0.0.1./t' },
  { family: 'public, decimal form', url: 'https://134744072/t' },
  { family: 'unspecified', url: 'https://0.0.0.0/t' },
  { family: 'private 10/8', url: 'https://10.1.2.3/t' },
  { family: 'private 172.16/12', url: 'https://172.16.0.9/t' },
  { family: 'private 192.168/16', url: 'https://192.168.1.20:8080/t' },
  { family: 'link-local (cloud metadata)', url: 'https://169.254.169.254/latest' },
  { family: 'CGNAT 100.64/10', url: 'https://100.64.0.1/t' },
  { family: 'IPv6 loopback', url: 'https://[::1]/t' },
  { family: 'IPv6 unspecified', url: 'https://[::]/t' },
  { family: 'IPv6 unique-local', url: 'https://[fd00::1]/t' },
  { family: 'IPv6 link-local', url: 'https://[fe80::1]/t' },
  { family: 'IPv4-mapped loopback', url: 'https://[::ffff:127.0.0.1]/t' },
  { family: 'IPv4-mapped private, hex', url: 'https://[::ffff:c0a8:114]/t' },
  { family: 'NAT64 of a private address', url: 'https://[64:ff9b::a00:1]/t' },
  { family: '6to4 of a private address', url: 'https://[2002:c0a8:101::1]/t' },
  { family: 'localhost', url: 'https://localhost/t' },
  { family: 'localhost, upper case, trailing dot', url: 'https://LOCALHOST./t' },
  { family: '*.localhost', url: 'https://ntfy.localhost/t' },
  { family: 'mDNS .local', url: 'https://printer.local/t' },
  { family: 'single-label name', url: 'https://ntfy/t' },
  { family: 'credentials in the URL', url: 'https://user:secret@ntfy.sh/t' },
];

/** Topics a device may set: https on a public name or address, any port. */
export const ACCEPTED_DEVICE_TOPICS: readonly string[] = [
  'https://ntfy.sh/askaway-3f9c',
  'https://ntfy.example.com:8443/team?auth=tk_abc',
  'https://8.8.8.8/t',
  'https://[2606:4700:4700::1111]/t',
];

// Preloaded into a drill's host (NODE_OPTIONS=--import): a DNS answer an attacker controls. Names under
// REBINDING_DNS_SUFFIX resolve to REBINDING_DNS_ADDRESS (this machine by default), as a rebinding name server
// would answer once its short-lived public answer has been checked. Every other name resolves as usual.
import dns from 'node:dns';

const suffix = process.env.REBINDING_DNS_SUFFIX ?? '.rebind.askaway-drill.example.com';
const address = process.env.REBINDING_DNS_ADDRESS ?? '127.0.0.1';
const family = address.includes(':') ? 6 : 4;
const rebinds = (hostname) =>
  typeof hostname === 'string' && hostname.toLowerCase().replace(/\.$/, '').endsWith(suffix);
const wantsAll = (options) => typeof options === 'object' && options !== null && options.all === true;

const realPromiseLookup = dns.promises.lookup.bind(dns.promises);
dns.promises.lookup = (hostname, options) => {
  if (!rebinds(hostname)) return realPromiseLookup(hostname, options);
  return Promise.resolve(wantsAll(options) ? [{ address, family }] : { address, family });
};

// What net.connect and fetch use when no lookup of the caller's own is given.
const realLookup = dns.lookup.bind(dns);
dns.lookup = (hostname, options, callback) => {
  const done = typeof options === 'function' ? options : callback;
  if (!rebinds(hostname)) return realLookup(hostname, options, callback);
  const opts = typeof options === 'function' ? {} : options;
  process.nextTick(() => (wantsAll(opts) ? done(null, [{ address, family }]) : done(null, address, family)));
  return {};
};

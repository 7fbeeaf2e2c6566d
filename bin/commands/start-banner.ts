import { isLoopbackHost, pairingQr, phoneCanOpen } from './pairing-output';

/** What `askaway start` knows once it listens: the facts its first screen is made of. */
export interface BannerFacts {
  version: string;
  localUrl: string;
  /** This machine's LAN addresses, when it listens on all interfaces. */
  lanUrls: string[];
  /** The --public-url or tailnet address, when there is one. */
  publicUrl?: string;
  /** The public URL is the tailnet name `--tailscale` serves. */
  tailnet: boolean;
  pairLink: string;
  /** "works once, until 14:32:05 (10 minutes)" */
  pairTerms: string;
  dataDir: string;
  /** A team hub's log, its URL without the password; undefined: SQLite in the data dir. */
  database?: string;
  /** A team hub's sign-in (R21.4): where people sign in, and the redirect URL to register at the provider. */
  signIn?: { url: string; callbackUrl: string; issuer: string };
  /** "studio (this one) and 2 joined" */
  machines: string;
  bindHost: string;
  port: number;
  webAppBuilt: boolean;
  staticDir: string;
}

/**
 * The start banner. The QR code is shown only for a link a phone can open: a loopback link opens the
 * phone's own loopback, so for it the banner says whose browser it is for and how to reach a phone instead.
 */
export async function startBanner(facts: BannerFacts): Promise<string> {
  const forPhone = phoneCanOpen(facts.pairLink);
  const lines = [
    `Askaway host ${facts.version}`,
    `  Local:    ${facts.localUrl}`,
    ...facts.lanUrls.map((url) => `  Network:  ${url}`),
    ...(facts.publicUrl !== undefined
      ? [`  Public:   ${facts.publicUrl}${facts.tailnet ? ' (tailscale serve; only your tailnet reaches it)' : ''}`]
      : []),
    `  Pair:     ${facts.pairLink}${forPhone ? '' : "  (this computer's browser only)"}`,
    `            ${facts.pairTerms}; \`askaway pair\` prints a new one`,
    `  Data dir: ${facts.dataDir}`,
    ...(facts.database !== undefined ? [`  Log:      PostgreSQL at ${facts.database}`] : []),
    ...(facts.signIn !== undefined
      ? [
          `  People:   sign in at ${facts.signIn.url} (provider ${facts.signIn.issuer});`,
          `            its redirect URL: ${facts.signIn.callbackUrl}`,
        ]
      : []),
    `  Machines: ${facts.machines}; \`askaway invite\` joins another`,
  ];
  if (!isLoopbackHost(facts.bindHost)) {
    lines.push(
      '',
      `Warning: listening on ${facts.bindHost}, not only on this machine. Anyone who can reach this port`,
      'can try to pair or connect; only paired devices and agents with the token get in. Prefer',
      '--tls-cert/--tls-key or a tunnel (see README), so neither travels in the clear.',
    );
  }
  if (!facts.webAppBuilt) {
    lines.push(
      '',
      `The web app is not built (${facts.staticDir}); run \`npm run build\`. The endpoints work meanwhile.`,
    );
  }
  if (!forPhone) {
    lines.push('', ...howToReachAPhone(facts));
    return `${lines.join('\n')}\n`;
  }
  if (new URL(facts.pairLink).protocol === 'http:') {
    lines.push(
      '',
      'Plain http: the phone gets the app, but no notifications and no offline app (they need https);',
      '--tailscale or --public-url https://… give it both.',
    );
  }
  return `${lines.join('\n')}\n\nScan to pair your phone:\n${await pairingQr(facts.pairLink)}\n`;
}

/** Every way to give the phone an address, one command each (README, "Use it from your phone"). */
function howToReachAPhone(facts: BannerFacts): string[] {
  const local = `http://127.0.0.1:${facts.port}`;
  return [
    `No QR code: ${new URL(facts.pairLink).host} is this computer's own address, and a phone that scans it`,
    'opens its own. Open the link above in a browser here; to pair a phone, start the host with one of:',
    '',
    '  askaway start --tailscale',
    '      phone and computer on one tailnet: https with a real certificate, nothing on the internet',
    `  cloudflared tunnel --url ${local}   then   askaway start --public-url https://<the address it prints>`,
    '      any network, through Cloudflare: https',
    '  askaway start --host 0.0.0.0',
    '      a trusted LAN only: plain http, so no notifications and no offline app on the phone',
    '',
    'From a clone, `npm start -- <flags>` runs `askaway start <flags>`. More in the README, "Use it from your phone".',
  ];
}

import fs from 'node:fs';
import { isLoopbackUrl, type OidcSettings } from '../../lib/host/people/oidc-settings';
import { UsageError } from './types';

type Env = Record<string, string | undefined>;

export const OIDC_USAGE = `  --oidc-issuer <url> A team hub's people sign in at this OpenID Connect provider (https; see
                      docs/PEOPLE.md); needs --oidc-client-id and the client secret
  --oidc-client-id <id>
                      This hub's client at the provider
  --oidc-client-secret-file <file>
                      The client's secret, read from this file; or ASKAWAY_OIDC_CLIENT_SECRET.
                      Never a flag value: ps shows command lines
  --oidc-owner <email>
                      The owner: whoever signs in with this verified email (default: the first
                      person to sign in)`;

export interface OidcFlags {
  issuer?: string;
  clientId?: string;
  secretFile?: string;
  owner?: string;
}

/**
 * The arguments given as `--oidc-client-secret <value>` or `--oidc-client-secret=<value>` (R21.3): refused by
 * name before anything else reads the command line, so the message says why instead of "unknown option".
 */
export function refuseSecretFlag(argv: string[]): void {
  if (argv.some((arg) => arg === '--oidc-client-secret' || arg.startsWith('--oidc-client-secret=')))
    throw new UsageError(
      'the client secret is never a flag: ps shows command lines to every user of the machine. ' +
        'Set ASKAWAY_OIDC_CLIENT_SECRET or give --oidc-client-secret-file <file>',
    );
}

/** The OpenID Connect settings (R21.1–R21.3), or undefined for a hub that is one person's; every problem a UsageError. */
export function parseOidcOptions(flags: OidcFlags, env: Env): OidcSettings | undefined {
  if (flags.issuer === undefined) {
    const stray = [
      flags.clientId !== undefined && '--oidc-client-id',
      flags.secretFile !== undefined && '--oidc-client-secret-file',
      flags.owner !== undefined && '--oidc-owner',
    ].filter(Boolean);
    if (stray.length > 0) throw new UsageError(`${stray.join(', ')} need --oidc-issuer`);
    return undefined;
  }
  const issuer = parseIssuer(flags.issuer);
  const clientId = flags.clientId?.trim();
  if (!clientId) throw new UsageError('--oidc-issuer needs --oidc-client-id: this hub’s client id at the provider');
  if (clientId.length > 255 || /[\s\u0000-\u001f\u007f]/.test(clientId))
    throw new UsageError(`--oidc-client-id must be up to 255 characters without spaces, got "${flags.clientId}"`);
  const fromEnv = env.ASKAWAY_OIDC_CLIENT_SECRET;
  if (flags.secretFile !== undefined && fromEnv !== undefined)
    throw new UsageError('give the client secret once: ASKAWAY_OIDC_CLIENT_SECRET or --oidc-client-secret-file');
  const clientSecret = flags.secretFile !== undefined ? readSecretFile(flags.secretFile) : fromEnv?.trim();
  if (!clientSecret)
    throw new UsageError(
      '--oidc-issuer needs the client secret: set ASKAWAY_OIDC_CLIENT_SECRET or give --oidc-client-secret-file <file>',
    );
  const owner = flags.owner?.trim();
  if (owner !== undefined && !/^[^\s@]+@[^\s@]+$/.test(owner))
    throw new UsageError(`--oidc-owner must be an email address, got "${flags.owner}"`);
  return { issuer, clientId, clientSecret, ...(owner !== undefined ? { ownerEmail: owner } : {}) };
}

/** An issuer identifier is an https URL without query or fragment (OpenID Connect Discovery §2). */
function parseIssuer(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new UsageError(`--oidc-issuer must be the provider's https URL, got "${value}"`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackUrl(url)))
    throw new UsageError(
      `--oidc-issuer must be an https URL (plain http only for a provider on this machine), got "${value}"`,
    );
  if (url.search || url.hash || url.username || url.password)
    throw new UsageError(`--oidc-issuer must have no query, fragment or credentials, got "${value}"`);
  // Exactly as given: discovery requires the provider's `issuer` to equal it, trailing slash and all
  // (https://tenant.auth0.com/ has one, https://accounts.google.com none).
  return value.trim();
}

function readSecretFile(file: string): string {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `--oidc-client-secret-file: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  const secret = text.trim();
  if (!secret) throw new UsageError(`--oidc-client-secret-file: ${file} is empty`);
  return secret;
}

/** How a team hub signs people in (R21.1): its OpenID Connect provider and this hub's client there. */
export interface OidcSettings {
  /** The provider's issuer URL, as its discovery document names it. */
  issuer: string;
  clientId: string;
  /** From ASKAWAY_OIDC_CLIENT_SECRET or `--oidc-client-secret-file`, never a flag (R21.3). */
  clientSecret: string;
  /** `--oidc-owner`: the verified email that makes its person the owner; else the first to sign in is (R21.9). */
  ownerEmail?: string;
}

/** Where the provider sends the browser back to: register exactly this at the provider (R21.4). */
export const CALLBACK_PATH = '/auth/callback';
export const SIGN_IN_PATH = '/auth/sign-in';
export const START_PATH = '/auth/start';

/** Plain http only for a provider on this machine (a test, a local Keycloak): elsewhere tokens would travel in clear. */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

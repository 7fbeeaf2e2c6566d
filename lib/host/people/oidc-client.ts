import * as client from 'openid-client';
import { type PersonProfile } from '../../contracts';
import { isLoopbackUrl, type OidcSettings } from './oidc-settings';
import { profileFromClaims } from './profile-claims';

/** What the browser is sent to, and what the callback must check the answer against (R21.5). */
export interface AuthorizationStart {
  url: URL;
  state: string;
  nonce: string;
  verifier: string;
}

/** Who the provider says signed in: its issuer and subject, and what it said about them. */
export interface SignedInIdentity {
  issuer: string;
  subject: string;
  profile: PersonProfile;
}

/** How long the provider gets for discovery, the token and userinfo requests. */
const REQUEST_TIMEOUT_S = 15;

/**
 * The hub's side of the authorization code flow with PKCE (R21.5), through `openid-client`: discovery (once, kept;
 * tried again after a failure), the authorization URL with state, nonce and an S256 challenge, and the code's
 * exchange, which checks the state, the nonce, the ID token's signature, issuer, audience and times and sends
 * the verifier.
 */
export class OidcClient {
  private configuration: Promise<client.Configuration> | undefined;

  constructor(
    private readonly settings: OidcSettings,
    /** `<public url>/auth/callback`: the address registered at the provider. */
    readonly redirectUri: string,
  ) {}

  get issuer(): string {
    return this.settings.issuer;
  }

  async begin(): Promise<AuthorizationStart> {
    const config = await this.configured();
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url, state, nonce, verifier };
  }

  /** `callbackUrl`: the redirect URI with the provider's query. Throws when any check fails. */
  async finish(
    callbackUrl: URL,
    checks: { state: string; nonce: string; verifier: string },
  ): Promise<SignedInIdentity> {
    const config = await this.configured();
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: checks.verifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('the provider sent no ID token');
    // Many providers keep email and name out of the ID token and give them at the userinfo endpoint.
    const userinfo =
      config.serverMetadata().userinfo_endpoint !== undefined
        ? await client.fetchUserInfo(config, tokens.access_token, claims.sub)
        : {};
    return { issuer: claims.iss, subject: claims.sub, profile: profileFromClaims({ ...claims, ...userinfo }) };
  }

  private configured(): Promise<client.Configuration> {
    this.configuration ??= this.discover().catch((error: unknown) => {
      this.configuration = undefined;
      throw error;
    });
    return this.configuration;
  }

  private async discover(): Promise<client.Configuration> {
    const issuer = new URL(this.settings.issuer);
    const insecure = issuer.protocol === 'http:' && isLoopbackUrl(issuer);
    const execute = insecure ? [client.allowInsecureRequests] : [];
    const { clientId, clientSecret } = this.settings;
    const found = await client.discovery(issuer, clientId, undefined, client.ClientSecretBasic(clientSecret), {
      execute,
      timeout: REQUEST_TIMEOUT_S,
    });
    // Basic is the default of the spec; a provider that says it takes only POST gets POST.
    const methods = found.serverMetadata().token_endpoint_auth_methods_supported;
    if (!methods || methods.includes('client_secret_basic')) return found;
    const config = new client.Configuration(
      found.serverMetadata(),
      clientId,
      undefined,
      client.ClientSecretPost(clientSecret),
    );
    for (const apply of execute) apply(config);
    config.timeout = REQUEST_TIMEOUT_S;
    return config;
  }
}

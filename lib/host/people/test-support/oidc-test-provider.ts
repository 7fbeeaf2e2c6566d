import { generateKeyPairSync } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import Provider, { type Account, type OidcContext } from 'oidc-provider';

/** Someone the test provider knows. `refused`: the provider turns their sign-in down (access_denied). */
export interface TestPerson {
  login: string;
  password: string;
  sub: string;
  email: string;
  name: string;
  groups: string[];
  refused?: boolean;
}

export const ANA: TestPerson = {
  login: 'ana',
  password: 'ana-password',
  sub: 'sub-ana-7f3c',
  email: 'ana@example.com',
  name: 'Ana Lima',
  groups: ['platform', 'ci-runners'],
};
export const BEN: TestPerson = {
  login: 'ben',
  password: 'ben-password',
  sub: 'sub-ben-91d2',
  email: 'ben@example.com',
  name: 'Ben Okafor',
  groups: ['ci-runners'],
};
/** Known to the provider, but not allowed to use this application there. */
export const CY: TestPerson = {
  login: 'cy',
  password: 'cy-password',
  sub: 'sub-cy-0a44',
  email: 'cy@example.com',
  name: 'Cy Novak',
  groups: [],
  refused: true,
};

export interface TestClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

export interface TestOidcProvider {
  /** `http://127.0.0.1:<port>`: the issuer, as the hub's `--oidc-issuer`. */
  issuer: string;
  /** Adds a client (a hub whose port is known only once it listens). */
  addClient(client: TestClient): void;
  close(): Promise<void>;
}

/**
 * A real OpenID provider for the tests (R21.25): `oidc-provider` (OpenID-certified) on a loopback port, with Ana,
 * Ben and Cy, a `groups` claim, PKCE required of every client, and its own login page (a form the tests and
 * Chromium fill in), which refuses Cy with `access_denied`. Development defaults are off: no dev interactions,
 * real signing keys, its own cookie keys.
 */
export async function startTestOidcProvider(
  options: { people?: TestPerson[]; clients?: TestClient[] } = {},
): Promise<TestOidcProvider> {
  const people = options.people ?? [ANA, BEN, CY];
  const clients: TestClient[] = [...(options.clients ?? [])];
  let provider: Provider | undefined;
  const server = http.createServer((req, res) => {
    if (!provider) return void res.writeHead(503).end();
    if (req.url?.startsWith('/interaction/')) {
      interaction(provider, people, req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(`interaction failed: ${String(error)}`);
      });
      return;
    }
    provider.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const jwk = signingKey();
  const configure = () => {
    provider = new Provider(issuer, {
      clients: clients.map((client) => ({
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: client.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      })),
      jwks: { keys: [{ ...jwk, kid: 'test-key', use: 'sig', alg: 'RS256' }] },
      cookies: { keys: ['askaway-test-provider-cookie-key'] },
      ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
      features: { devInteractions: { enabled: false } },
      // Every client must send a PKCE challenge (S256): a hub that left it out is refused, as a strict provider would.
      pkce: { required: () => true },
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
      // No consent screen: a company's own application is granted the scopes it asks for.
      loadExistingGrant: async (ctx: OidcContext) => {
        const clientId = ctx.oidc.client?.clientId;
        const accountId = ctx.oidc.session?.accountId;
        if (!clientId || !accountId) return undefined;
        const grant = new ctx.oidc.provider.Grant({ clientId, accountId });
        grant.addOIDCScope('openid email profile');
        await grant.save();
        return grant;
      },
      findAccount: (_ctx: unknown, sub: string): Account | undefined => {
        const person = people.find((candidate) => candidate.sub === sub);
        return (
          person && {
            accountId: person.sub,
            claims: () =>
              Promise.resolve({
                sub: person.sub,
                email: person.email,
                email_verified: true,
                name: person.name,
                groups: person.groups,
              }),
          }
        );
      },
    });
  };
  configure();
  return {
    issuer,
    addClient(client) {
      clients.push(client);
      configure();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let sharedSigningKey: JsonWebKey | undefined;

/**
 * The providers' RSA signing key, made once per process: a 2,048-bit key costs 40–450 ms of CPU, and the team tests
 * start a provider per test. Tokens are still signed with a real key; no test tells two providers apart by it.
 */
function signingKey(): JsonWebKey {
  sharedSigningKey ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  return sharedSigningKey;
}

async function interaction(
  provider: Provider,
  people: TestPerson[],
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (req.method === 'GET') {
    sendLoginPage(res, 200, details.uid, undefined);
    return;
  }
  const form = new URLSearchParams(await readBody(req));
  const person = people.find((candidate) => candidate.login === form.get('login'));
  if (!person || person.password !== form.get('password')) {
    sendLoginPage(res, 401, details.uid, 'Wrong login or password.');
    return;
  }
  if (person.refused) {
    await provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: `${person.name} is not assigned to this application` },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId: person.sub } },
    { mergeWithLastSubmission: false },
  );
}

function sendLoginPage(res: ServerResponse, status: number, uid: string, error: string | undefined): void {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Example Corp sign-in</title></head>
<body><h1>Example Corp</h1>${error ? `<p role="alert">${error}</p>` : ''}
<form method="post" action="/interaction/${uid}">
<label>Login <input name="login" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button>
</form></body></html>`);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

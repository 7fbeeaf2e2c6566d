// A hub that signs people in at the suite's real OpenID provider (oidc-provider, started per test): the provider
// fixture, and the `askaway start` flags that name it, with the client secret in a file as a person keeps it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestOidcProvider, type TestOidcProvider } from '../../lib/host/people/test-support/oidc-test-provider';

/** The `provider` fixture: a provider of its own for each test, closed after it. */
export async function provideOidcProvider(
  {}: object,
  provide: (provider: TestOidcProvider) => Promise<void>,
): Promise<void> {
  const provider = await startTestOidcProvider();
  await provide(provider);
  await provider.close();
}

export interface OidcClient {
  clientId: string;
  clientSecret: string;
  /** `--oidc-owner`: someone who never signs in, so everyone who does starts as a member. */
  owner?: string;
}

/** Runs `run` with the flags that start a hub on `provider` as `client`; the secret's file is removed after. */
export async function withOidcFlags(
  provider: TestOidcProvider,
  client: OidcClient,
  run: (flags: string[]) => Promise<void>,
): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'askaway-oidc-client-'));
  const secretFile = path.join(dir, 'client-secret');
  await writeFile(secretFile, `${client.clientSecret}\n`, { mode: 0o600 });
  try {
    await run([
      '--oidc-issuer',
      provider.issuer,
      '--oidc-client-id',
      client.clientId,
      '--oidc-client-secret-file',
      secretFile,
      ...(client.owner ? ['--oidc-owner', client.owner] : []),
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Registers the hub at `hubUrl` with the provider as `client`, its callback there. */
export function registerHub(provider: TestOidcProvider, client: OidcClient, hubUrl: string): void {
  provider.addClient({
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    redirectUris: [`${hubUrl}/auth/callback`],
  });
}

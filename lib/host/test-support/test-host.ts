import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHost, type Host, type HostOptions } from '../create-host';

export const TEST_TOKEN = 'test-token-0123456789';

const hosts = new Set<Host>();

export function tempDir(prefix = 'askaway-host-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A real host on a free port, with a SQLite log in a temp dir unless given one. */
export async function startTestHost(options: Partial<HostOptions> = {}): Promise<Host> {
  const host = await createHost({
    dataDir: options.dataDir ?? tempDir(),
    port: 0,
    token: TEST_TOKEN,
    staticDir: options.staticDir ?? path.join(tempDir('askaway-static-'), 'out'),
    // Refused messages are logged by design; tests that read the log pass their own.
    log: () => undefined,
    ...options,
  });
  hosts.add(host);
  return host;
}

export async function closeAllHosts(): Promise<void> {
  await Promise.all([...hosts].map((host) => host.close()));
  hosts.clear();
}

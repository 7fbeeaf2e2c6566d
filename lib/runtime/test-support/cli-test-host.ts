import { afterAll, afterEach, beforeAll } from 'vitest';
import { type Host } from '../../host';
import { closeAllClients } from '../../host/test-support/clients';
import { closeAllHosts, startTestHost, tempDir } from '../../host/test-support/test-host';
import { spawnCli, type SpawnedCli } from './run-cli';

export const WAIT = { timeout: 10_000, interval: 50 };

/** One real host for a test file, and the CLI processes its tests start against it (killed after each test). */
export function cliTestHost(): { host: () => Host; spawn: (args: readonly string[]) => SpawnedCli } {
  let started: Host | undefined;
  const children = new Set<SpawnedCli['child']>();
  beforeAll(async () => {
    started = await startTestHost();
  });
  afterEach(() => {
    for (const child of children) child.kill('SIGKILL');
    children.clear();
  });
  afterAll(async () => {
    closeAllClients();
    await closeAllHosts();
  });
  const host = (): Host => {
    if (!started) throw new Error('the test host has not started');
    return started;
  };
  return {
    host,
    spawn(args) {
      const cli = spawnCli(args, { ASKAWAY_URL: host().url, ASKAWAY_TOKEN: host().token, ASKAWAY_DATA_DIR: tempDir() });
      children.add(cli.child);
      return cli;
    },
  };
}

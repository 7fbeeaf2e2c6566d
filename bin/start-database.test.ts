import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeAllClients, connectRemote, connectRuntime } from '../lib/host/test-support/clients';
import { redeemPairingCode } from '../lib/host/test-support/devices';
import { questionRequest } from '../lib/host/test-support/fixtures';
import { killAllCli, runCli, startCliHost } from '../lib/host/test-support/spawn-cli';
import { tempDir } from '../lib/host/test-support/test-host';
import { createDatabase, type TestDatabase } from '../lib/host/store/test-support/pg-test-database';
import { unusedPort } from '../lib/host/store/test-support/pg-test-logs';
import { expectItem } from '../lib/core/test-support/expect-item';

// `askaway start --database` against the tests' own PostgreSQL (a throwaway cluster, one database per file).

const TOKEN = 'team-hub-token';
const SLOW = { timeout: 15_000, interval: 50 };
let database: TestDatabase;

beforeAll(async () => {
  database = await createDatabase();
});
afterAll(async () => {
  await database.drop();
});
afterEach(() => {
  closeAllClients();
  killAllCli();
});

const passwordOf = (url: string) => decodeURIComponent(new URL(url).password);

describe('askaway start --database (child processes, a real PostgreSQL)', () => {
  it('[R20.10][R20.17][R20.20] keeps the log and the credentials in PostgreSQL across a SIGKILL; the banner names it without the password', async () => {
    const dataDir = tempDir();
    const env = { ASKAWAY_TOKEN: TOKEN, ASKAWAY_DATABASE_URL: database.url };
    const first = await startCliHost(['--port', '0', '--data-dir', dataDir], env);
    expect(first.stdout()).toMatch(/Log: +PostgreSQL at postgres:\/\/[^:]+:\*\*\*@127\.0\.0\.1:\d+\//);
    const phone = await redeemPairingCode(
      first.url,
      new URLSearchParams(new URL(first.pair).hash.slice(1)).get('code') ?? '',
      'Phone',
    );
    const runtime = await connectRuntime(first.url, TOKEN, 'agent');
    const asked = questionRequest();
    expect(await runtime.socket.emitWithAck('announce', asked)).toMatchObject({ ok: true, status: 'pending' });
    // The log is the database's: nothing of it in the data dir.
    expect(fs.existsSync(path.join(dataDir, 'askaway.db'))).toBe(false);

    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    const port = new URL(first.url).port;
    const second = await startCliHost(['--port', port, '--data-dir', dataDir], env);
    // The phone's credential is still good, and the question still waits.
    const remote = await connectRemote(second.url, phone.credential);
    expect(expectItem(remote.snapshots, 0).pending.map((view) => view.requestId)).toEqual([asked.requestId]);
    const again = await connectRuntime(second.url, TOKEN, 'agent-again');
    expect(await again.socket.emitWithAck('announce', asked)).toMatchObject({ ok: true, status: 'pending' });
    const answer = await remote.socket.emitWithAck('respond', {
      requestId: asked.requestId,
      clientResponseId: 'phone-1',
      response: { action: 'accept', content: { answers: { 'Which database?': 'PostgreSQL' } } },
    });
    expect(answer).toMatchObject({ ok: true, status: 'accepted' });
    await vi.waitFor(() => expect(again.resolved).toHaveLength(1), SLOW);

    const output = `${first.stdout()}${first.stderr()}${second.stdout()}${second.stderr()}`;
    expect(output).not.toContain(passwordOf(database.url));
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('[R20.17][R20.20] a database out of reach stops the start with the reason and never the password; a bad URL is a usage error', async () => {
    const nowhere = new URL(database.url);
    nowhere.port = String(await unusedPort());
    const refused = runCli(['start', '--no-demo', '--port', '0', '--data-dir', tempDir()], {
      ASKAWAY_DATABASE_URL: nowhere.toString(),
    });
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toMatch(/askaway start: .*127\.0\.0\.1/);
    expect(refused.stderr()).toContain('***');
    expect(`${refused.stdout()}${refused.stderr()}`).not.toContain(passwordOf(database.url));

    const notPostgres = runCli(['start', '--database', 'mysql://root@db/askaway']);
    expect(await notPostgres.exited).toBe(2);
    expect(notPostgres.stderr()).toMatch(/--database must be a postgres:\/\/ URL/);
  });

  it('[R20.20] a password in the --database flag works, with a warning that ps shows it', async () => {
    const host = await startCliHost(['--port', '0', '--data-dir', tempDir(), '--database', database.url], {
      ASKAWAY_TOKEN: TOKEN,
    });
    await vi.waitFor(() => expect(host.stdout() + host.stderr()).toMatch(/holds a password, which ps shows/), SLOW);
    expect(host.stdout() + host.stderr()).not.toContain(passwordOf(database.url));
  });
});

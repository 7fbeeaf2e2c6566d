import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { closeAllClients, connectRemote, connectRuntime } from '../lib/host/test-support/clients';
import { readAdminToken, redeemPairingCode } from '../lib/host/test-support/devices';
import { questionRequest } from '../lib/host/test-support/fixtures';
import { mintJoinCode, redeemJoinCode } from '../lib/host/test-support/machines';
import { writeAnsweredQuestions } from '../lib/host/test-support/answered-questions-log';
import { killAllCli, runCli, startCliHost } from '../lib/host/test-support/spawn-cli';
import { tempDir } from '../lib/host/test-support/test-host';
import { asAdmin, createDatabase, type TestDatabase } from '../lib/host/store/test-support/pg-test-database';
import { unusedPort } from '../lib/host/store/test-support/pg-test-logs';
import { SqliteEventStore } from '../lib/host/store/sqlite-event-store';
import { PgEventStore } from '../lib/host/store/pg/pg-event-store';
import { delivered } from '../lib/host/store/test-support/event-store-contract';
import { expectItem } from '../lib/core/test-support/expect-item';

// `askaway migrate` as real processes: a personal hub, then the team hub on the database it was moved into.

const TOKEN = 'migrate-agent-token';
const SLOW = { timeout: 15_000, interval: 50 };
const databases: TestDatabase[] = [];

afterEach(() => {
  closeAllClients();
  killAllCli();
});
afterAll(async () => {
  await Promise.all(databases.map((database) => database.drop()));
});

async function emptyDatabase(): Promise<TestDatabase> {
  const database = await createDatabase();
  databases.push(database);
  return database;
}

const passwordOf = (url: string) => decodeURIComponent(new URL(url).password);

/** `askaway migrate <args>` to its end. */
async function migrate(args: string[], env: Record<string, string> = {}) {
  const run = runCli(['migrate', ...args], env);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** Our tables in the database: none before a log is made there. */
async function askawayTables(url: string): Promise<string[]> {
  const rows = await asAdmin<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_name LIKE 'askaway%' ORDER BY table_name",
    [],
    url,
  );
  return rows.map((row) => row.name);
}

/** Every file of the data dir the personal log is made of, with a digest of its bytes (a deep compare of 20 MB crawls). */
function personalLogFiles(dataDir: string): Map<string, string> {
  return new Map(
    fs
      .readdirSync(dataDir)
      .filter((name) => name.startsWith('askaway.db'))
      .map((name) => [
        name,
        createHash('sha256')
          .update(fs.readFileSync(path.join(dataDir, name)))
          .digest('hex'),
      ]),
  );
}

describe('askaway migrate (child processes, a real PostgreSQL)', () => {
  it(
    '[R20.30][R20.31][R20.34][R20.35] moves a personal hub: the same phone and machine connect to the team hub, resume at the same seq, and the waiting question is answered',
    { timeout: 90_000 },
    async () => {
      const database = await emptyDatabase();
      const dataDir = tempDir('migrate-hub-');
      const personal = await startCliHost(['--port', '0', '--data-dir', dataDir], { ASKAWAY_TOKEN: TOKEN });
      const code = new URLSearchParams(new URL(personal.pair).hash.slice(1)).get('code') ?? '';
      const phone = await redeemPairingCode(personal.url, code, 'Phone');
      const { code: joinCode } = await mintJoinCode(personal.url, readAdminToken(dataDir));
      const laptop = await redeemJoinCode(personal.url, joinCode, 'laptop');

      const remote = await connectRemote(personal.url, phone.credential);
      expect(
        await remote.socket.emitWithAck('preferences:update', { notifyDelayMs: 30_000, notifyFinishedTurns: false }),
      ).toMatchObject({ ok: true });
      const agent = await connectRuntime(personal.url, TOKEN, 'agent');
      const answered = questionRequest();
      expect(await agent.socket.emitWithAck('announce', answered)).toMatchObject({ ok: true, status: 'pending' });
      expect(
        await remote.socket.emitWithAck('respond', {
          requestId: answered.requestId,
          clientResponseId: 'phone-1',
          response: { action: 'accept', content: { answers: { 'Which database?': 'SQLite' } } },
        }),
      ).toMatchObject({ ok: true, status: 'accepted' });
      await vi.waitFor(() => expect(agent.resolved).toHaveLength(1), SLOW);
      const onLaptop = await connectRuntime(personal.url, laptop.credential, 'laptop-agent');
      const waiting = questionRequest();
      expect(await onLaptop.socket.emitWithAck('announce', waiting)).toMatchObject({ ok: true, status: 'pending' });
      const before = expectItem((await connectRemote(personal.url, phone.credential)).snapshots, 0);
      // A joined machine's question, keyed on the hub by its machine (R17.4).
      const waitingKey = expectItem(before.pending, 0).requestId;
      expect(before.pending.map((view) => view.requestId)).toEqual([`${laptop.machine.id}:${waiting.requestId}`]);
      expect(before.history.map((view) => view.requestId)).toEqual([answered.requestId]);
      closeAllClients();
      personal.child.kill('SIGTERM');
      expect(await personal.exited).toBe(0);

      const bytes = personalLogFiles(dataDir);
      const moved = await migrate(['--from', dataDir], { ASKAWAY_DATABASE_URL: database.url });
      expect(moved.stderr).toBe('');
      expect(moved.code).toBe(0);
      expect(moved.stdout).toMatch(
        /Events: +\d+ events, seq 1 to \d+: the same count, last seq and digest on both sides/,
      );
      expect(moved.stdout).toContain(`seq 1 to ${before.seq}:`);
      expect(moved.stdout).toMatch(/Devices: +1 paired phone\n/);
      expect(moved.stdout).toMatch(/Machines: +1 joined machine\n/);
      expect(moved.stdout).toMatch(/Questions: +1 waiting question\n/);
      expect(moved.stdout).toMatch(/Credentials: +2 \(1 device, 1 machine\): their hashes/);
      expect(moved.stdout).toContain(`Log id:       ${before.logId}`);
      expect(moved.stdout).not.toContain(passwordOf(database.url));
      // The personal log was only read.
      expect(personalLogFiles(dataDir)).toEqual(bytes);

      // The command it prints, with the password where it says to put it.
      const next = /^ {2}askaway start (.+)$/m.exec(moved.stdout)?.[1]?.split(' ') ?? [];
      expect(next).toEqual(['--data-dir', dataDir, '--database', expect.stringMatching(/^postgres:\/\/askaway@/)]);
      const team = await startCliHost(['--port', '0', ...next], {
        ASKAWAY_TOKEN: TOKEN,
        PGPASSWORD: passwordOf(database.url),
      });
      expect(team.stdout()).toMatch(/Log: +PostgreSQL at postgres:\/\/askaway@/);

      const after = expectItem((await connectRemote(team.url, phone.credential)).snapshots, 0);
      expect({ logId: after.logId, seq: after.seq, preferences: after.preferences }).toEqual({
        logId: before.logId,
        seq: before.seq,
        preferences: before.preferences,
      });
      expect(after.preferences).toMatchObject({ notifyDelayMs: 30_000, notifyFinishedTurns: false });
      expect(after.pending).toEqual(before.pending);
      expect(after.history).toEqual(before.history);
      expect(after.devices).toEqual(before.devices);
      // A phone that was connected resumes by seq: nothing it missed, no snapshot.
      const resumed = await connectRemote(team.url, phone.credential, {
        resume: { logId: before.logId, lastSeq: before.seq },
      });
      expect(resumed.snapshots).toEqual([]);
      expect(resumed.events).toEqual([]);

      const laptopAgain = await connectRuntime(team.url, laptop.credential, 'laptop-agent');
      expect(await laptopAgain.socket.emitWithAck('announce', waiting)).toMatchObject({ ok: true, status: 'pending' });
      expect(
        await resumed.socket.emitWithAck('respond', {
          requestId: waitingKey,
          clientResponseId: 'phone-2',
          response: { action: 'accept', content: { answers: { 'Which database?': 'PostgreSQL' } } },
        }),
      ).toMatchObject({ ok: true, status: 'accepted' });
      await vi.waitFor(
        () => expect(laptopAgain.resolved.map((notice) => notice.requestId)).toEqual([waiting.requestId]),
        SLOW,
      );
      team.child.kill('SIGTERM');
      expect(await team.exited).toBe(0);
      expect(`${team.stdout()}${team.stderr()}`).not.toContain(passwordOf(database.url));
    },
  );

  it(
    '[R20.33] refuses while the personal hub runs (host.json, or the log locked), and changes nothing',
    { timeout: 60_000 },
    async () => {
      const database = await emptyDatabase();
      const dataDir = tempDir('migrate-running-');
      const personal = await startCliHost(['--port', '0', '--data-dir', dataDir], { ASKAWAY_TOKEN: TOKEN });
      const running = await migrate(['--from', dataDir, '--to', database.url]);
      expect(running.code).toBe(1);
      expect(running.stderr).toMatch(
        new RegExp(
          `A hub is running with .* \\(pid ${personal.child.pid}, http://127\\.0\\.0\\.1:\\d+\\): stop it first`,
        ),
      );
      personal.child.kill('SIGTERM');
      expect(await personal.exited).toBe(0);

      // Another process holding the log (a host whose host.json is gone): SQLite's lock says so.
      const holder = new SqliteEventStore(path.join(dataDir, 'askaway.db'));
      try {
        const locked = await migrate(['--from', dataDir, '--to', database.url]);
        expect(locked.code).toBe(1);
        expect(locked.stderr).toMatch(/The event log .*askaway\.db is locked: is another askaway host running/);
      } finally {
        await holder.close();
      }
      expect(await askawayTables(database.url)).toEqual([]);
    },
  );

  it(
    '[R20.33] refuses a team log that holds events, saying how many; the personal log is as it was',
    { timeout: 30_000 },
    async () => {
      const database = await emptyDatabase();
      // A team hub's log that has seen some work.
      const teamLog = await PgEventStore.open(database.url, { log: () => undefined });
      await teamLog.append([delivered('a'), delivered('b'), delivered('c')]);
      await teamLog.close();

      const dataDir = tempDir('migrate-full-');
      await writeAnsweredQuestions(path.join(dataDir, 'askaway.db'), 3);
      const bytes = personalLogFiles(dataDir);
      const refused = await migrate(['--from', dataDir, '--to', database.url]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        new RegExp(
          `The event log in postgres://askaway:\\*\\*\\*@.* is not empty \\(it holds 3 events and 0 credentials\\): nothing was copied\\.`,
        ),
      );
      expect(refused.stderr).not.toContain(passwordOf(database.url));
      expect(personalLogFiles(dataDir)).toEqual(bytes);
    },
  );

  it(
    '[R20.33] refuses a damaged or newer personal log, a database out of reach (never showing the password), and a bad URL',
    { timeout: 60_000 },
    async () => {
      const database = await emptyDatabase();
      const damaged = tempDir('migrate-damaged-');
      fs.writeFileSync(path.join(damaged, 'askaway.db'), 'not a database, just text that is long enough'.repeat(20));
      const unreadable = await migrate(['--from', damaged, '--to', database.url]);
      expect(unreadable.code).toBe(1);
      expect(unreadable.stderr).toMatch(/askaway\.db is not a readable SQLite database .* It was left untouched/);

      const newer = tempDir('migrate-newer-');
      await writeAnsweredQuestions(path.join(newer, 'askaway.db'), 1);
      const db = new Database(path.join(newer, 'askaway.db'));
      db.pragma('user_version = 99');
      db.close();
      const fromTheFuture = await migrate(['--from', newer, '--to', database.url]);
      expect(fromTheFuture.code).toBe(1);
      expect(fromTheFuture.stderr).toMatch(/was written by a newer Askaway \(schema 99/);

      const nowhere = await migrate(['--from', tempDir('migrate-none-'), '--to', database.url]);
      expect(nowhere.code).toBe(1);
      expect(nowhere.stderr).toMatch(/holds no personal hub's log \(.*askaway\.db does not exist\)/);
      expect(await askawayTables(database.url)).toEqual([]);

      const dataDir = tempDir('migrate-offline-');
      await writeAnsweredQuestions(path.join(dataDir, 'askaway.db'), 2);
      const bytes = personalLogFiles(dataDir);
      const offline = new URL(database.url);
      offline.port = String(await unusedPort());
      const unreachable = await migrate(['--from', dataDir], { ASKAWAY_DATABASE_URL: offline.toString() });
      expect(unreachable.code).toBe(1);
      expect(unreachable.stderr).toMatch(
        /Cannot reach the event log's database at postgres:\/\/askaway:\*\*\*@127\.0\.0\.1:\d+\/askaway_test_\w+: the connection was refused/,
      );
      const wrongPassword = new URL(database.url);
      wrongPassword.password = 'not-the-password-42';
      const refused = await migrate(['--from', dataDir, '--to', wrongPassword.toString()]);
      expect(refused.stderr).toMatch(/refused the user name or password/);
      for (const run of [unreachable, refused])
        expect(`${run.stdout}${run.stderr}`).not.toMatch(new RegExp(`${passwordOf(database.url)}|not-the-password-42`));
      expect(personalLogFiles(dataDir)).toEqual(bytes);

      const notPostgres = await migrate(['--from', dataDir, '--to', 'mysql://root@db/askaway']);
      expect(notPostgres.code).toBe(2);
      expect(notPostgres.stderr).toMatch(/askaway migrate: --to must be a postgres:\/\/ URL: it is a mysql:\/\/ URL/);
      expect(notPostgres.stderr).toContain('Usage: askaway migrate');
      const noTarget = await migrate(['--from', dataDir], { ASKAWAY_DATABASE_URL: '' });
      expect(noTarget.code).toBe(2);
      expect(noTarget.stderr).toMatch(/--to needs the team database/);
    },
  );

  it(
    '[R20.32][R20.36] a 20,000-event log: Ctrl-C mid-copy leaves the database as it was, and the next run moves it all in reasonable time',
    { timeout: 120_000 },
    async () => {
      const database = await emptyDatabase();
      const dataDir = tempDir('migrate-large-');
      expect(await writeAnsweredQuestions(path.join(dataDir, 'askaway.db'), 5_000)).toBe(20_000);
      const bytes = personalLogFiles(dataDir);

      const interrupted = runCli(['migrate', '--from', dataDir, '--to', database.url]);
      await vi.waitFor(() => expect(interrupted.stderr()).toContain('Copied 5,000 of 20,000 events'), SLOW);
      interrupted.child.kill('SIGINT');
      expect(await interrupted.exited).toBe('SIGINT');
      expect(interrupted.stdout()).toBe('');
      // The server ends the transaction of a session whose client went away.
      await vi.waitFor(async () => expect(await migrateSessions(database.name)).toBe(0), SLOW);
      expect(await askawayTables(database.url)).toEqual([]);

      const started = performance.now();
      const moved = await migrate(['--from', dataDir, '--to', database.url]);
      const seconds = (performance.now() - started) / 1_000;
      expect(moved.stderr).toMatch(/Copied 15,000 of 20,000 events/);
      expect(moved.code).toBe(0);
      expect(moved.stdout).toMatch(/Events: +20,000 events, seq 1 to 20000: the same count, last seq and digest/);
      expect(personalLogFiles(dataDir)).toEqual(bytes);
      // Reasonable: a whole process, the copy and reading both logs back, well under a minute on a small machine.
      expect(seconds).toBeLessThan(60);
      if (process.env.ASKAWAY_REPORT_MIGRATE) console.info(`migrate: 20,000 events in ${seconds.toFixed(1)} s`);
      const [head] = await asAdmin<{ last_seq: string }>('SELECT last_seq FROM askaway_head', [], database.url);
      expect(head?.last_seq).toBe('20000');
    },
  );
});

/** Sessions `askaway migrate` still has open on the database. */
async function migrateSessions(name: string): Promise<number> {
  const rows = await asAdmin<{ sessions: string }>(
    "SELECT count(*) AS sessions FROM pg_stat_activity WHERE datname = $1 AND application_name = 'askaway migrate'",
    [name],
  );
  return Number(rows[0]?.sessions ?? 0);
}

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SqliteEventStore } from './store/sqlite-event-store';
import { questionRequest } from './test-support/fixtures';
import { killAllCli, runCli } from './test-support/spawn-cli';
import { closeAllHosts, startTestHost, tempDir } from './test-support/test-host';

// Fault drill: a data dir that is corrupt, locked or unwritable stops
// `askaway start` with a clear error, and nothing in it is overwritten.

const TOKEN = 'drill-token';
const immutable: string[] = [];

afterEach(async () => {
  killAllCli();
  await closeAllHosts();
  for (const target of immutable.splice(0)) setWritable(target, true);
});

/** Root ignores permission bits, so as root the drill uses the immutable attribute instead. */
const asRoot = process.getuid?.() === 0;
function setWritable(target: string, writable: boolean): void {
  if (asRoot) execFileSync('chattr', [writable ? '-i' : '+i', target]);
  else
    fs.chmodSync(
      target,
      writable
        ? fs.statSync(target).isDirectory()
          ? 0o700
          : 0o600
        : fs.statSync(target).isDirectory()
          ? 0o500
          : 0o400,
    );
  if (!writable) immutable.push(target);
}
const canLock = (() => {
  if (!asRoot) return true;
  try {
    const probe = tempDir('askaway-chattr-');
    execFileSync('chattr', ['+i', probe], { stdio: 'ignore' });
    execFileSync('chattr', ['-i', probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Names and contents of every file in a folder, to prove nothing was written. */
function fingerprint(dir: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    result[name] = fs.statSync(file).isFile()
      ? createHash('sha256').update(fs.readFileSync(file)).digest('hex')
      : 'dir';
  }
  return result;
}

/** A real log with one pending question, closed cleanly. */
async function logWithOneQuestion(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'askaway.db');
  const store = new SqliteEventStore(file);
  const { protocolRequestId: _routing, ...interaction } = questionRequest();
  const at = new Date().toISOString();
  await store.append([{ type: 'interaction.requested', at, interaction } as never]);
  await store.close();
  return file;
}

/** Starts a host on `dataDir` and expects it to refuse (exit 1); a host that starts listening fails the check at once. */
async function startFails(
  dataDir: string,
  options: { port?: string; env?: Record<string, string> } = {},
): Promise<string> {
  const cli = runCli(
    ['start', '--no-demo', '--port', options.port ?? '0', '--data-dir', dataDir],
    options.env ?? { ASKAWAY_TOKEN: TOKEN },
  );
  const listening = new Promise<'listening'>((resolve) => {
    cli.child.stdout?.on('data', () => {
      if (/Local:\s+http/.test(cli.stdout())) resolve('listening');
    });
  });
  const outcome = await Promise.race([cli.exited, listening]);
  if (outcome === 'listening') cli.child.kill('SIGKILL');
  expect(outcome).toBe(1);
  return cli.stderr();
}

describe('data dir fault drill', () => {
  it('[R10.2] a log with a damaged page stops start with a clear error and stays byte-for-byte as it was', async () => {
    const dataDir = tempDir();
    const file = await logWithOneQuestion(dataDir);
    // Scribble over the events table's page (page 2): a torn copy or a bad disk.
    const page = fs.readFileSync(file).readUInt16BE(16); // the page size, from the SQLite header
    const handle = fs.openSync(file, 'r+');
    fs.writeSync(handle, Buffer.alloc(1_024, 0xa5), 0, 1_024, page + 8);
    fs.closeSync(handle);
    const before = fingerprint(dataDir);
    const stderr = await startFails(dataDir);
    expect(stderr).toMatch(/askaway start: The event log .*askaway\.db is damaged.*left untouched; move it aside/);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(fingerprint(dataDir)).toEqual(before);
  });

  it('[R10.2] a second host on a data dir in use is refused and the first keeps serving', async () => {
    const dataDir = tempDir();
    // The first host runs in this process: it holds the log's lock as any host does.
    const first = await startTestHost({ dataDir, token: TOKEN });
    const stderr = await startFails(dataDir);
    expect(stderr).toMatch(/locked: is another askaway host running/);
    const health = await fetch(`${first.url}/`);
    expect(health.status).toBeLessThan(500);
    expect(first.registry.snapshot().pending).toEqual([]);
  });

  it.skipIf(!canLock)(
    '[R10.2] an unwritable data dir stops start with a clear error and nothing is created',
    async () => {
      const dataDir = tempDir();
      fs.writeFileSync(path.join(dataDir, 'token'), `${TOKEN}\n`);
      const before = fingerprint(dataDir);
      setWritable(dataDir, false);
      const stderr = await startFails(dataDir);
      expect(stderr).toMatch(/askaway start: .*(data dir|event log).*/);
      expect(stderr).not.toMatch(/\n\s+at /); // a message for a person, not a stack trace
      setWritable(dataDir, true);
      expect(fingerprint(dataDir)).toEqual(before);
    },
  );

  it.skipIf(!canLock)('[R10.2] a read-only log file stops start with a clear error and is left untouched', async () => {
    const dataDir = tempDir();
    const file = await logWithOneQuestion(dataDir);
    const before = fingerprint(dataDir);
    setWritable(file, false);
    const stderr = await startFails(dataDir);
    expect(stderr).toMatch(/askaway start: .*event log/);
    expect(stderr).not.toMatch(/\n\s+at /);
    setWritable(file, true);
    expect(fingerprint(dataDir)).toEqual(before);
  });

  it('[R12.11] a garbage log refuses the start and no token, admin token or push key is created beside it', async () => {
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, 'askaway.db'), 'not a database, just some bytes'.repeat(100));
    const before = fingerprint(dataDir);
    // No ASKAWAY_TOKEN: the host would create its own token file if it wrote anything.
    const stderr = await startFails(dataDir, { env: { ASKAWAY_TOKEN: '' } });
    expect(stderr).toMatch(/askaway start: The event log .* is not a readable SQLite database/);
    expect(fingerprint(dataDir)).toEqual(before);
  });

  it('[R12.11] a port in use refuses the start before the data dir is even created', async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const dataDir = path.join(tempDir(), 'fresh');
      const port = String((busy.address() as AddressInfo).port);
      const stderr = await startFails(dataDir, { port, env: { ASKAWAY_TOKEN: '' } });
      expect(stderr).toMatch(/askaway start: Cannot listen: port \d+ on 127\.0\.0\.1 is in use/);
      expect(fs.existsSync(dataDir)).toBe(false);
    } finally {
      busy.close();
    }
  });

  it('[R12.11] a data dir under /proc, /sys or /dev is refused at once with a reason', async () => {
    for (const dataDir of ['/proc/askaway-data', '/sys/askaway', '/dev/askaway']) {
      const stderr = await startFails(dataDir);
      expect(stderr).toMatch(/askaway start: The data dir .* is under \/(proc|sys|dev), a kernel filesystem/);
    }
  });

  it("[R12.9] every file the host creates is the owner's only, and a data dir others can read is tightened", async () => {
    const dataDir = tempDir();
    fs.chmodSync(dataDir, 0o755);
    // An older install's log and token, readable by everyone.
    await (await startTestHost({ dataDir, token: TOKEN, writeHostFile: false })).close();
    for (const name of fs.readdirSync(dataDir)) fs.chmodSync(path.join(dataDir, name), 0o644);
    fs.writeFileSync(path.join(dataDir, 'token'), `${TOKEN}\n`, { mode: 0o644 });
    fs.chmodSync(path.join(dataDir, 'token'), 0o644);
    const cli = runCli(['start', '--no-demo', '--port', '0', '--data-dir', dataDir], { ASKAWAY_TOKEN: '' });
    await vi.waitFor(() => expect(cli.stdout()).toMatch(/Local:\s+http/), { timeout: 15_000 });
    const modes = Object.fromEntries(
      fs.readdirSync(dataDir).map((name) => [name, (fs.statSync(path.join(dataDir, name)).mode & 0o777).toString(8)]),
    );
    expect(modes).toMatchObject({
      token: '600',
      'admin-token': '600',
      'askaway.db': '600',
      'push.sqlite': '600',
      'vapid.json': '600',
      'host.json': '600',
    });
    for (const [name, mode] of Object.entries(modes)) expect(mode, name).toBe('600');
    expect((fs.statSync(dataDir).mode & 0o777).toString(8)).toBe('700');

    // A fresh data dir: created 0700, its files 0600 from their first byte.
    const fresh = path.join(tempDir(), 'fresh');
    const second = runCli(['start', '--no-demo', '--port', '0', '--data-dir', fresh], { ASKAWAY_TOKEN: '' });
    await vi.waitFor(() => expect(second.stdout()).toMatch(/Local:\s+http/), { timeout: 15_000 });
    expect((fs.statSync(fresh).mode & 0o777).toString(8)).toBe('700');
    for (const name of fs.readdirSync(fresh))
      expect((fs.statSync(path.join(fresh, name)).mode & 0o777).toString(8), name).toBe('600');
  });
});

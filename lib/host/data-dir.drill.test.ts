import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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
function logWithOneQuestion(dataDir: string): string {
  const file = path.join(dataDir, 'askaway.db');
  const store = new SqliteEventStore(file);
  const { protocolRequestId: _routing, ...interaction } = questionRequest();
  const at = new Date().toISOString();
  store.append([{ type: 'interaction.requested', at, interaction } as never]);
  store.close();
  return file;
}

/** Starts a host on `dataDir` and expects it to refuse (exit 1); a host that starts listening fails the check at once. */
async function startFails(dataDir: string): Promise<string> {
  const cli = runCli(['start', '--no-demo', '--port', '0', '--data-dir', dataDir], { ASKAWAY_TOKEN: TOKEN });
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
    const file = logWithOneQuestion(dataDir);
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
    const file = logWithOneQuestion(dataDir);
    const before = fingerprint(dataDir);
    setWritable(file, false);
    const stderr = await startFails(dataDir);
    expect(stderr).toMatch(/askaway start: .*event log/);
    expect(stderr).not.toMatch(/\n\s+at /);
    setWritable(file, true);
    expect(fingerprint(dataDir)).toEqual(before);
  });
});

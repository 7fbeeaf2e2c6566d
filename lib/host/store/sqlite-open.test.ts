import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { type NewHostEvent } from '../../contracts';
import { HostStartError } from '../errors';
import { tempDir } from '../test-support/test-host';
import { SqliteEventStore } from './sqlite-event-store';
import { durabilityFromEnv } from './sqlite-open';

const delivered = (requestId: string): NewHostEvent => ({
  type: 'interaction.delivered',
  at: '2026-01-01T00:00:00.000Z',
  requestId,
});

function logFile(): string {
  return path.join(tempDir('askaway-open-'), 'askaway.db');
}

/** A log with a few events, closed cleanly (WAL checkpointed into the main file). */
async function writtenLog(): Promise<string> {
  const file = logFile();
  const store = new SqliteEventStore(file);
  await store.append(['a', 'b', 'c'].map(delivered));
  await store.close();
  return file;
}

/** Every file next to the log, byte for byte. */
function filesNextTo(file: string): Record<string, string> {
  const dir = path.dirname(file);
  return Object.fromEntries(
    fs.readdirSync(dir).map((name) => [name, fs.readFileSync(path.join(dir, name)).toString('base64')]),
  );
}

async function expectRefused(file: string, reason: RegExp): Promise<void> {
  const before = filesNextTo(file);
  let thrown: unknown;
  try {
    await new SqliteEventStore(file).close();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(HostStartError);
  const message = thrown instanceof Error ? thrown.message : '';
  expect(message).toContain(file);
  expect(message).toMatch(reason);
  expect(message).toMatch(/left untouched; move it aside/);
  expect(filesNextTo(file)).toEqual(before);
}

describe('[R10.2] SQLite log: what is refused at open', () => {
  it('[R10.2] refuses a log with a damaged page and writes nothing', async () => {
    const file = await writtenLog();
    const pageSize = fs.readFileSync(file).readUInt16BE(16);
    const handle = fs.openSync(file, 'r+');
    // The events table's root page (page 2), past its header: cell pointers and cells.
    fs.writeSync(handle, Buffer.alloc(512, 0xa5), 0, 512, pageSize + 8);
    fs.closeSync(handle);
    await expectRefused(file, /is damaged|not a readable SQLite database/);
  });

  it('[R10.2] refuses a file that is not a SQLite database', async () => {
    const file = logFile();
    fs.writeFileSync(file, '{"not": "a database"}\n'.repeat(300));
    await expectRefused(file, /not a readable SQLite database/);
  });

  it('[R10.2] refuses a log written by a newer Askaway', async () => {
    const file = await writtenLog();
    const db = new Database(file);
    db.pragma('user_version = 5');
    db.close();
    await expectRefused(file, /newer Askaway \(schema 5, this one reads 4\)/);
  });

  it("[R10.2] refuses another application's SQLite database", async () => {
    const file = logFile();
    const db = new Database(file);
    db.exec('CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT)');
    db.close();
    await expectRefused(file, /SQLite database Askaway does not know \(tables: contacts\)/);
  });

  it('[R10.2] refuses an events table of another shape', async () => {
    const file = logFile();
    const db = new Database(file);
    db.exec('CREATE TABLE events (id INTEGER PRIMARY KEY, payload TEXT)');
    db.close();
    await expectRefused(file, /does not know/);
  });

  it('[R10.2] opens an empty file and a log of its own schema', async () => {
    const empty = logFile();
    fs.writeFileSync(empty, '');
    const fresh = new SqliteEventStore(empty);
    await fresh.append([delivered('x')]);
    await fresh.close();
    const reopened = new SqliteEventStore(empty);
    expect(await reopened.lastSeq()).toBe(1);
    await reopened.close();
  });
});

/** A log as Askaway wrote it before device credentials: schema 1, the events table alone. */
function schemaOneLog(): string {
  const file = logFile();
  const db = new Database(file);
  db.exec('CREATE TABLE events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, at TEXT NOT NULL, body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO events (seq, type, at, body) VALUES (?, ?, ?, ?)');
  ['a', 'b'].forEach((requestId, index) => {
    const event = { ...delivered(requestId), seq: index + 1 };
    insert.run(event.seq, event.type, event.at, JSON.stringify(event));
  });
  db.pragma('user_version = 1');
  db.close();
  return file;
}

describe('[R16.7] SQLite log: moving forward', () => {
  it('[R16.7] migrates a schema-1 log forward: history kept, device events and credentials added, one log id', async () => {
    const file = schemaOneLog();
    const store = new SqliteEventStore(file);
    expect((await store.readSince(0, 10)).map((event) => event.seq)).toEqual([1, 2]);
    const [paired] = await store.append([
      {
        type: 'device.paired',
        at: '2026-01-01T00:00:01.000Z',
        device: { id: 'abcdef0123456789', name: 'Phone', platform: '' },
      },
    ]);
    expect(paired?.seq).toBe(3);
    await store.credentials.add({
      kind: 'device',
      id: 'abcdef0123456789',
      secretHash: Buffer.alloc(32, 7),
      createdAt: paired?.at ?? '',
    });
    const logId = store.logId;
    await store.close();

    const db = new Database(file, { readonly: true });
    // An older host reads schema 1 and refuses anything newer at open.
    expect(db.pragma('user_version', { simple: true })).toBe(4);
    expect(
      db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        .all()
        .map((row) => (row as { name: string }).name),
    ).toEqual(['credentials', 'events', 'meta']);
    db.close();

    const reopened = new SqliteEventStore(file);
    expect(reopened.logId).toBe(logId);
    expect((await reopened.readSince(0, 10)).map((event) => event.type)).toEqual([
      'interaction.delivered',
      'interaction.delivered',
      'device.paired',
    ]);
    expect(await reopened.credentials.secretHash('device', 'abcdef0123456789')).toEqual(Buffer.alloc(32, 7));
    await reopened.close();
  });

  it("[R17.4] migrates a schema-2 log forward: its interactions move to the hub's own machine, ids kept", async () => {
    const file = logFile();
    const before = new SqliteEventStore(file, { localMachineName: 'ignored' });
    await before.close();
    const db = new Database(file);
    const record = {
      kind: 'permission',
      requestId: 'toolu_1',
      sessionId: 's1',
      toolName: 'Bash',
      createdAt: '2026-01-01T00:00:00.000Z',
      input: { command: 'ls' },
    };
    const event = { seq: 1, type: 'interaction.requested', at: record.createdAt, interaction: record };
    db.prepare('INSERT INTO events (seq, type, at, body) VALUES (?, ?, ?, ?)').run(
      1,
      event.type,
      event.at,
      JSON.stringify(event),
    );
    db.pragma('user_version = 2');
    db.close();

    const store = new SqliteEventStore(file, { localMachineName: 'workstation' });
    expect(await store.readSince(0, 10)).toEqual([
      {
        ...event,
        interaction: {
          ...record,
          machine: { id: 'local', name: 'workstation' },
          agent: { kind: 'claude-code', name: 'Claude Code' },
        },
      },
    ]);
    await store.close();
    const reopened = new Database(file, { readonly: true });
    expect(reopened.pragma('user_version', { simple: true })).toBe(4);
    reopened.close();
  });

  it('[R18.1] migrates a schema-3 log forward: each interaction names its agent as its tool name implies', async () => {
    const file = logFile();
    await new SqliteEventStore(file).close();
    const db = new Database(file);
    const base = { sessionId: 's1', createdAt: '2026-01-01T00:00:00.000Z', machine: { id: 'local', name: 'hub' } };
    const options = [
      { label: 'A', description: 'first' },
      { label: 'B', description: 'second' },
    ];
    const question = { questions: [{ question: 'Which?', header: 'H', multiSelect: false, options }] };
    const records = [
      {
        ...base,
        requestId: 'hook',
        kind: 'question',
        toolName: 'AskUserQuestion',
        inputRules: 'claude-code',
        input: question,
      },
      { ...base, requestId: 'plan', kind: 'plan-approval', toolName: 'ExitPlanMode', input: { plan: 'p' } },
      {
        ...base,
        requestId: 'mcp',
        kind: 'question',
        toolName: 'ask_user_question',
        origin: { kind: 'root', label: '', path: [], depth: 0, client: { name: 'Cursor', version: '2.0' } },
        input: question,
      },
      { ...base, requestId: 'bare', kind: 'question', toolName: 'ask_user_question', input: question },
      {
        ...base,
        requestId: 'codex',
        kind: 'question',
        toolName: 'request_user_input',
        input: question,
        agent: { kind: 'codex', name: 'Codex' },
      },
    ];
    const insert = db.prepare('INSERT INTO events (seq, type, at, body) VALUES (?, ?, ?, ?)');
    records.forEach((record, index) =>
      insert.run(
        index + 1,
        'interaction.requested',
        base.createdAt,
        JSON.stringify({ seq: index + 1, type: 'interaction.requested', at: base.createdAt, interaction: record }),
      ),
    );
    db.pragma('user_version = 3');
    db.close();

    const store = new SqliteEventStore(file);
    const agents = (await store.readSince(0, 10)).map((event) =>
      event.type === 'interaction.requested' ? event.interaction.agent : undefined,
    );
    expect(agents).toEqual([
      { kind: 'claude-code', name: 'Claude Code' },
      { kind: 'claude-code', name: 'Claude Code' },
      { kind: 'mcp', name: 'Cursor', version: '2.0' },
      { kind: 'mcp', name: 'MCP client' },
      { kind: 'codex', name: 'Codex' },
    ]);
    await store.close();
  });

  it('[R16.7] two logs have two ids', async () => {
    const [a, b] = [new SqliteEventStore(logFile()), new SqliteEventStore(logFile())];
    expect(a.logId).toMatch(/^[0-9a-f]{24}$/);
    expect(a.logId).not.toBe(b.logId);
    await a.close();
    await b.close();
  });

  it('[R16.7] refuses a schema-2 or 3 log that lacks its tables', async () => {
    const file = schemaOneLog();
    const db = new Database(file);
    db.pragma('user_version = 3');
    db.close();
    await expectRefused(file, /does not know \(tables: events\)/);
  });
});

describe('[R10.2] SQLite log durability setting', () => {
  it('[R10.2] defaults to synchronous=NORMAL in WAL and takes full from the option', async () => {
    const mode = async (durability?: 'full' | 'normal') => {
      const store = new SqliteEventStore(logFile(), durability ? { durability } : {});
      const db = (store as unknown as { db: Database.Database }).db;
      const result = {
        journal: db.pragma('journal_mode', { simple: true }),
        synchronous: db.pragma('synchronous', { simple: true }),
      };
      await store.close();
      return result;
    };
    // SQLite reports synchronous as a number: 1 = NORMAL, 2 = FULL.
    expect(await mode('full')).toEqual({ journal: 'wal', synchronous: 2 });
    expect(await mode('normal')).toEqual({ journal: 'wal', synchronous: 1 });
  });

  it('[R10.2] reads ASKAWAY_DURABILITY and rejects unknown values', () => {
    expect(durabilityFromEnv(undefined)).toBe('normal');
    expect(durabilityFromEnv('')).toBe('normal');
    expect(durabilityFromEnv(' FULL ')).toBe('full');
    expect(durabilityFromEnv('normal')).toBe('normal');
    expect(() => durabilityFromEnv('off')).toThrow(/ASKAWAY_DURABILITY must be "normal" or "full", not "off"/);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type NewHostEvent } from '../../contracts';
import { InteractionRegistry } from '../registry';
import { questionRequest } from '../test-support/fixtures';
import { tempDir } from '../test-support/test-host';
import { type EventStore } from './event-store';
import { MemoryEventStore } from './memory-event-store';
import { SqliteEventStore } from './sqlite-event-store';
import { expectItem } from '../../core/test-support/expect-item';

const at = '2026-01-01T00:00:00.000Z';
const pref = (enabled: boolean): NewHostEvent => ({
  type: 'preferences.updated',
  at,
  preferences: {
    askUserQuestionAutoResolutionEnabled: enabled,
    askUserQuestionAutoResolutionTimeoutMs: 60_000,
    notifyDelayMs: 0,
    notifyFinishedTurns: true,
    away: false,
  },
});
const delivered = (requestId: string): NewHostEvent => ({ type: 'interaction.delivered', at, requestId });

const stores: [string, () => EventStore][] = [
  ['memory', () => new MemoryEventStore()],
  ['sqlite', () => new SqliteEventStore(path.join(tempDir('askaway-store-'), 'log.db'))],
];

const opened: EventStore[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

describe.each(stores)('[R10.2] EventStore contract: %s', (_name, create) => {
  const open = () => {
    const store = create();
    opened.push(store);
    return store;
  };

  it('[R10.2] starts empty', () => {
    const store = open();
    expect(store.lastSeq()).toBe(0);
    expect(store.readSince(0, 10)).toEqual([]);
  });

  it('[R10.2] numbers appended events densely from 1 and returns them in order', () => {
    const store = open();
    const first = store.append([pref(true), delivered('a')]);
    const second = store.append([delivered('b')]);
    expect(first.map((event) => event.seq)).toEqual([1, 2]);
    expect(second.map((event) => event.seq)).toEqual([3]);
    expect(store.lastSeq()).toBe(3);
    expect(store.readSince(0, 10)).toEqual([...first, ...second]);
  });

  it('[R10.2] reads strictly after a seq, bounded by the limit', () => {
    const store = open();
    store.append(['a', 'b', 'c', 'd', 'e'].map(delivered));
    expect(store.readSince(2, 2).map((event) => event.seq)).toEqual([3, 4]);
    expect(store.readSince(5, 10)).toEqual([]);
    expect(store.readSince(4, 0)).toEqual([]);
  });

  it('[R10.2] keeps an appended event unchanged when the caller mutates its objects', () => {
    const store = open();
    const events: NewHostEvent[] = [pref(true)];
    const [stored] = store.append(events);
    if (stored?.type === 'preferences.updated') stored.preferences.askUserQuestionAutoResolutionEnabled = false;
    const [read] = store.readSince(0, 1);
    expect(read?.type === 'preferences.updated' && read.preferences.askUserQuestionAutoResolutionEnabled).toBe(true);
  });

  it('[R10.2] appending nothing changes nothing', () => {
    const store = open();
    expect(store.append([])).toEqual([]);
    expect(store.lastSeq()).toBe(0);
  });
});

describe('[R10.2] SQLite log across restarts', () => {
  it('[R10.2] rebuilds pending, history, delivery and preferences after reopening', () => {
    const file = path.join(tempDir('askaway-store-'), 'log.db');
    const store = new SqliteEventStore(file);
    const registry = new InteractionRegistry({ store });
    const answered = questionRequest();
    const waiting = questionRequest();
    registry.announce(answered, 'socket-1');
    registry.announce(waiting, 'socket-1');
    registry.updatePreferences({ askUserQuestionAutoResolutionEnabled: true });
    registry.respond(
      {
        requestId: answered.requestId,
        clientResponseId: 'c-1',
        response: { action: 'accept', content: { answers: {} } },
      },
      { id: 'phone' },
    );
    registry.acknowledgeResolution({ requestId: answered.requestId });
    const before = registry.snapshot();
    registry.stop();
    store.close();

    const reopened = new SqliteEventStore(file);
    const rebuilt = new InteractionRegistry({ store: reopened });
    const after = rebuilt.snapshot();
    reopened.close();
    expect(after.seq).toBe(before.seq);
    expect(after.pending).toEqual(before.pending);
    expect(after.history).toEqual(before.history);
    expect(after.preferences.askUserQuestionAutoResolutionEnabled).toBe(true);
    expect(after.pending.map((view) => view.requestId)).toEqual([waiting.requestId]);
    expect(expectItem(after.history, 0).deliveredAt).toBeDefined();
  });

  it('[R10.2] refuses a corrupt database file with a clear error and leaves it untouched', () => {
    const file = path.join(tempDir('askaway-store-'), 'log.db');
    fs.writeFileSync(file, 'this is not a database '.repeat(100));
    const before = fs.readFileSync(file);
    expect(() => new SqliteEventStore(file)).toThrow(/not a readable SQLite database.*untouched/);
    expect(fs.readFileSync(file)).toEqual(before);
  });

  it('[R10.2] refuses a log another host holds open', () => {
    const file = path.join(tempDir('askaway-store-'), 'log.db');
    const first = new SqliteEventStore(file);
    try {
      expect(() => new SqliteEventStore(file)).toThrow(/locked: is another askaway host running/);
    } finally {
      first.close();
    }
  });
});

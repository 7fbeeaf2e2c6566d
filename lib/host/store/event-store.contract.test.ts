import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type NewHostEvent } from '../../contracts';
import { InteractionRegistry } from '../registry';
import { questionRequest } from '../test-support/fixtures';
import { tempDir } from '../test-support/test-host';
import { type EventStore, LogMovedError } from './event-store';
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
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

describe.each(stores)('[R10.2][R20.7] EventStore contract: %s', (_name, create) => {
  const open = () => {
    const store = create();
    opened.push(store);
    return store;
  };

  it('[R10.2] starts empty', async () => {
    const store = open();
    expect(await store.lastSeq()).toBe(0);
    expect(await store.readSince(0, 10)).toEqual([]);
  });

  it('[R10.2] numbers appended events densely from 1 and returns them in order', async () => {
    const store = open();
    const first = await store.append([pref(true), delivered('a')]);
    const second = await store.append([delivered('b')]);
    expect(first.map((event) => event.seq)).toEqual([1, 2]);
    expect(second.map((event) => event.seq)).toEqual([3]);
    expect(await store.lastSeq()).toBe(3);
    expect(await store.readSince(0, 10)).toEqual([...first, ...second]);
  });

  it('[R10.2] reads strictly after a seq, bounded by the limit', async () => {
    const store = open();
    await store.append(['a', 'b', 'c', 'd', 'e'].map(delivered));
    expect((await store.readSince(2, 2)).map((event) => event.seq)).toEqual([3, 4]);
    expect(await store.readSince(5, 10)).toEqual([]);
    expect(await store.readSince(4, 0)).toEqual([]);
  });

  it('[R10.2] keeps an appended event unchanged when the caller mutates its objects', async () => {
    const store = open();
    const events: NewHostEvent[] = [pref(true)];
    const [stored] = await store.append(events);
    if (stored?.type === 'preferences.updated') stored.preferences.askUserQuestionAutoResolutionEnabled = false;
    const [read] = await store.readSince(0, 1);
    expect(read?.type === 'preferences.updated' && read.preferences.askUserQuestionAutoResolutionEnabled).toBe(true);
  });

  it('[R10.2] appending nothing changes nothing', async () => {
    const store = open();
    expect(await store.append([])).toEqual([]);
    expect(await store.lastSeq()).toBe(0);
  });

  it('[R20.2] appends after the seq the caller decided on, and only then', async () => {
    const store = open();
    expect((await store.append([delivered('a')], { afterSeq: 0 })).map((event) => event.seq)).toEqual([1]);
    expect((await store.append([delivered('b'), delivered('c')], { afterSeq: 1 })).map((event) => event.seq)).toEqual([
      2, 3,
    ]);
    expect(await store.lastSeq()).toBe(3);
  });

  it('[R20.2] refuses a conditional append once the log moved on, and appends nothing', async () => {
    const store = open();
    await store.append([delivered('a'), delivered('b')]);
    const refused = store.append([delivered('late')], { afterSeq: 1 });
    await expect(refused).rejects.toBeInstanceOf(LogMovedError);
    await expect(refused).rejects.toMatchObject({ expectedSeq: 1, lastSeq: 2 });
    expect(await store.lastSeq()).toBe(2);
    expect((await store.readSince(0, 10)).map((event) => event.seq)).toEqual([1, 2]);
    // Behind as well as ahead: a seq the log never reached is no head to append after.
    await expect(store.append([delivered('ahead')], { afterSeq: 5 })).rejects.toBeInstanceOf(LogMovedError);
  });

  it('[R20.2] of two appends decided on the same head, exactly one lands', async () => {
    const store = open();
    const outcomes = await Promise.allSettled([
      store.append([delivered('first')], { afterSeq: 0 }),
      store.append([delivered('second')], { afterSeq: 0 }),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected');
    expect(refused?.status === 'rejected' && refused.reason).toBeInstanceOf(LogMovedError);
    expect(await store.lastSeq()).toBe(1);
  });

  it('[R20.4] tells a watcher the newest seq after an append, and nothing once it stopped watching', async () => {
    const store = open();
    const heard: number[] = [];
    const stillWatching: number[] = [];
    const stop = store.watch((seq) => heard.push(seq));
    store.watch((seq) => stillWatching.push(seq));
    await store.append([delivered('a'), delivered('b')]);
    await vi.waitFor(() => expect(heard).toEqual([2]));
    stop();
    await store.append([delivered('c')]);
    await vi.waitFor(() => expect(stillWatching).toEqual([2, 3]));
    expect(heard).toEqual([2]);
  });
});

describe('[R10.2] SQLite log across restarts', () => {
  it('[R10.2] rebuilds pending, history, delivery and preferences after reopening', async () => {
    const file = path.join(tempDir('askaway-store-'), 'log.db');
    const store = new SqliteEventStore(file);
    const registry = await InteractionRegistry.open({ store });
    const answered = questionRequest();
    const waiting = questionRequest();
    await registry.announce(answered, 'socket-1');
    await registry.announce(waiting, 'socket-1');
    await registry.updatePreferences({ askUserQuestionAutoResolutionEnabled: true });
    await registry.respond(
      {
        requestId: answered.requestId,
        clientResponseId: 'c-1',
        response: { action: 'accept', content: { answers: {} } },
      },
      { id: 'phone' },
    );
    await registry.acknowledgeResolution({ requestId: answered.requestId });
    const before = registry.snapshot();
    registry.stop();
    await store.close();

    const reopened = new SqliteEventStore(file);
    const rebuilt = await InteractionRegistry.open({ store: reopened });
    const after = rebuilt.snapshot();
    await reopened.close();
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

  it('[R10.2] refuses a log another host holds open', async () => {
    const file = path.join(tempDir('askaway-store-'), 'log.db');
    const first = new SqliteEventStore(file);
    try {
      expect(() => new SqliteEventStore(file)).toThrow(/locked: is another askaway host running/);
    } finally {
      await first.close();
    }
  });
});

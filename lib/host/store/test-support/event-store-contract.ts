import { afterEach, describe, expect, it, vi } from 'vitest';
import { type NewHostEvent } from '../../../contracts';
import { type CredentialKind, type NewCredential } from '../credential-store';
import { type EventStore, LogMovedError } from '../event-store';

const at = '2026-01-01T00:00:00.000Z';
export const pref = (enabled: boolean): NewHostEvent => ({
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
export const delivered = (requestId: string): NewHostEvent => ({ type: 'interaction.delivered', at, requestId });

const credential = (kind: CredentialKind, id: string, byte: number): NewCredential => ({
  kind,
  id,
  secretHash: Buffer.alloc(32, byte),
  createdAt: at,
});

/**
 * What every EventStore (memory, SQLite, PostgreSQL) must do, whatever holds the log: the registry relies on
 * these and nothing else. `open` gives a new, empty log each time; the suite closes what it opened.
 */
export function describeEventStoreContract(name: string, open: () => Promise<EventStore>): void {
  describe(`[R10.2][R20.7] EventStore contract: ${name}`, () => {
    const opened: EventStore[] = [];
    const fresh = async () => {
      const store = await open();
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    it('[R10.2] starts empty', async () => {
      const store = await fresh();
      expect(await store.lastSeq()).toBe(0);
      expect(await store.readSince(0, 10)).toEqual([]);
      expect(store.logId).toMatch(/^\S{8,}$/);
    });

    it('[R10.2] numbers appended events densely from 1 and returns them in order', async () => {
      const store = await fresh();
      const first = await store.append([pref(true), delivered('a')]);
      const second = await store.append([delivered('b')]);
      expect(first.map((event) => event.seq)).toEqual([1, 2]);
      expect(second.map((event) => event.seq)).toEqual([3]);
      expect(await store.lastSeq()).toBe(3);
      expect(await store.readSince(0, 10)).toEqual([...first, ...second]);
    });

    it('[R10.2] reads strictly after a seq, bounded by the limit', async () => {
      const store = await fresh();
      await store.append(['a', 'b', 'c', 'd', 'e'].map(delivered));
      expect((await store.readSince(2, 2)).map((event) => event.seq)).toEqual([3, 4]);
      expect(await store.readSince(5, 10)).toEqual([]);
      expect(await store.readSince(4, 0)).toEqual([]);
    });

    it('[R10.2] keeps an appended event unchanged when the caller mutates its objects', async () => {
      const store = await fresh();
      const events = [pref(true)];
      const [stored] = await store.append(events);
      if (stored?.type === 'preferences.updated') stored.preferences.askUserQuestionAutoResolutionEnabled = false;
      const [given] = events;
      if (given?.type === 'preferences.updated') given.preferences.notifyDelayMs = 5;
      const [read] = await store.readSince(0, 1);
      if (read?.type === 'preferences.updated') read.preferences.away = true;
      const [again] = await store.readSince(0, 1);
      expect(again?.type === 'preferences.updated' && again.preferences).toEqual({
        askUserQuestionAutoResolutionEnabled: true,
        askUserQuestionAutoResolutionTimeoutMs: 60_000,
        notifyDelayMs: 0,
        notifyFinishedTurns: true,
        away: false,
      });
    });

    it('[R10.2] keeps text exactly as appended: NUL, quotes, backslashes, line separators, astral characters', async () => {
      const store = await fresh();
      const odd = 'a\u0000b "q" \\ \u2028 😀 \ud83d';
      const [stored] = await store.append([delivered(odd)]);
      const [read] = await store.readSince(0, 1);
      expect(read).toEqual(stored);
      expect(read?.type === 'interaction.delivered' && read.requestId).toBe(odd);
    });

    it('[R10.2] appending nothing changes nothing', async () => {
      const store = await fresh();
      expect(await store.append([])).toEqual([]);
      expect(await store.lastSeq()).toBe(0);
      await store.append([delivered('a')]);
      expect(await store.append([], { afterSeq: 1 })).toEqual([]);
      expect(await store.lastSeq()).toBe(1);
    });

    it('[R20.13] appends after the seq the caller decided on while it is still the newest', async () => {
      const store = await fresh();
      expect((await store.append([delivered('a')], { afterSeq: 0 })).map((event) => event.seq)).toEqual([1]);
      const next = await store.append([delivered('b'), delivered('c')], { afterSeq: 1 });
      expect(next.map((event) => event.seq)).toEqual([2, 3]);
      expect(await store.lastSeq()).toBe(3);
    });

    it('[R20.13] refuses a stale afterSeq with LogMovedError carrying the newest seq, and appends nothing', async () => {
      const store = await fresh();
      await store.append([delivered('a'), delivered('b')]);
      const refused = store.append([delivered('c')], { afterSeq: 1 });
      await expect(refused).rejects.toBeInstanceOf(LogMovedError);
      await expect(refused).rejects.toMatchObject({ expectedSeq: 1, lastSeq: 2 });
      await expect(store.append([], { afterSeq: 0 })).rejects.toMatchObject({ expectedSeq: 0, lastSeq: 2 });
      await expect(store.append([delivered('d')], { afterSeq: 3 })).rejects.toMatchObject({ lastSeq: 2 });
      expect(await store.lastSeq()).toBe(2);
      expect((await store.readSince(0, 10)).map((event) => event.seq)).toEqual([1, 2]);
    });

    it('[R20.2][R20.13] of two appends decided on the same head, exactly one lands', async () => {
      const store = await fresh();
      const outcomes = await Promise.allSettled([
        store.append([delivered('first')], { afterSeq: 0 }),
        store.append([delivered('second')], { afterSeq: 0 }),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      const refused = outcomes.find((outcome) => outcome.status === 'rejected');
      expect(refused?.status === 'rejected' && refused.reason).toBeInstanceOf(LogMovedError);
      expect(await store.lastSeq()).toBe(1);
    });

    it('[R20.16] tells a watcher the newest seq after its own append, and nothing once stopped', async () => {
      const store = await fresh();
      const heard: number[] = [];
      const stop = store.watch((seq) => heard.push(seq));
      await store.append([delivered('a'), delivered('b')]);
      await vi.waitFor(() => expect(heard.at(-1)).toBe(2));
      stop();
      const later: number[] = [];
      const stopLater = store.watch((seq) => later.push(seq));
      await store.append([delivered('c')]);
      await vi.waitFor(() => expect(later.at(-1)).toBe(3));
      stopLater();
      expect(heard.every((seq) => seq <= 2)).toBe(true);
    });

    it('[R16.1] keeps a credential hash by kind and id, and refuses a second one with the same id', async () => {
      const store = await fresh();
      await store.credentials.add(credential('device', 'phone-1', 1));
      await store.credentials.add(credential('machine', 'phone-1', 2));
      expect(await store.credentials.secretHash('device', 'phone-1')).toEqual(Buffer.alloc(32, 1));
      expect(await store.credentials.secretHash('machine', 'phone-1')).toEqual(Buffer.alloc(32, 2));
      expect(await store.credentials.secretHash('device', 'phone-2')).toBeUndefined();
      await expect(store.credentials.add(credential('device', 'phone-1', 3))).rejects.toThrow(Error);
      expect(await store.credentials.secretHash('device', 'phone-1')).toEqual(Buffer.alloc(32, 1));
      expect(await store.readSince(0, 10)).toEqual([]);
    });

    it('[R21.69] reads the events with the seqs asked for, oldest first, leaving out seqs it does not hold', async () => {
      const store = await fresh();
      await store.append([pref(true), delivered('a'), delivered('b'), delivered('c')]);
      const read = await store.readSeqs([4, 2, 2, 9, 0, -1, 1.5]);
      expect(read.map((event) => event.seq)).toEqual([2, 4]);
      expect(read[1]).toMatchObject({ type: 'interaction.delivered', requestId: 'c' });
      expect(await store.readSeqs([])).toEqual([]);
    });

    it('[R16.1] records when each credential was last seen, by kind', async () => {
      const store = await fresh();
      await store.credentials.add(credential('device', 'b', 1));
      await store.credentials.add(credential('device', 'a', 2));
      await store.credentials.add(credential('machine', 'm', 3));
      expect(await store.credentials.lastSeen('device')).toEqual(new Map());
      await store.credentials.setLastSeen('device', 'b', '2026-01-02T00:00:00.000Z');
      await store.credentials.setLastSeen('device', 'a', '2026-01-03T00:00:00.000Z');
      await store.credentials.setLastSeen('device', 'b', '2026-01-04T00:00:00.000Z');
      await store.credentials.setLastSeen('device', 'unknown', '2026-01-05T00:00:00.000Z');
      const seen = await store.credentials.lastSeen('device');
      expect(seen).toEqual(
        new Map([
          ['a', '2026-01-03T00:00:00.000Z'],
          ['b', '2026-01-04T00:00:00.000Z'],
        ]),
      );
      expect(await store.credentials.lastSeen('machine')).toEqual(new Map());
      expect(await store.credentials.secretHash('device', 'unknown')).toBeUndefined();
    });
  });
}

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InteractionRegistry } from '../registry';
import { questionRequest } from '../test-support/fixtures';
import { tempDir } from '../test-support/test-host';
import { MemoryEventStore } from './memory-event-store';
import { SqliteEventStore } from './sqlite-event-store';
import { describeEventStoreContract } from './test-support/event-store-contract';
import { expectItem } from '../../core/test-support/expect-item';

describeEventStoreContract('memory', async () => new MemoryEventStore());
describeEventStoreContract('sqlite', async () => new SqliteEventStore(path.join(tempDir('askaway-store-'), 'log.db')));

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

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeAllHosts } from '../../../host/test-support/test-host';
import { permissionAsked, questionAsked, SESSION } from './fixtures';
import { closeBridgeRigs, openCodeBridgeRig } from './test-support/bridge-rig';

afterEach(async () => {
  vi.useRealTimers();
  await closeBridgeRigs();
  await closeAllHosts();
});

/** V8's collector, on demand: what no card keeps can then be seen to be gone. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** A real host and phone, the bridge in-process (its own turn-end grace), OpenCode's side faked by its routes. */
const setup = () => openCodeBridgeRig();

describe('what the OpenCode bridge keeps while a card waits (R12.19)', () => {
  it('[R12.19] a waiting card keeps nothing of the request it came from beyond what its answer needs', async () => {
    const gc = collector();
    const { remote, opencode, bridge, event } = await setup();
    // What OpenCode may send beside what the card shows: a request's own fields, megabytes of them.
    const extras: WeakRef<object>[] = [];
    const extra = () => {
      const value = { output: 'x'.repeat(1_000) };
      extras.push(new WeakRef(value));
      return value;
    };
    event('permission.asked', permissionAsked({ metadata: { command: 'ls', output: extra() }, extraField: extra() }));
    event('question.asked', { ...questionAsked(), transcript: extra() });
    await remote.next((record) => record.requestId === 'opencode-per_2309eec49001KT6V00Q1w6x8xd');
    await remote.next((record) => record.requestId === 'opencode-que_2309dfd01001aQEsFqqjXdJZik');
    expect(bridge.open()).toHaveLength(2);
    // The wait goes on (the cards are open); what came with the requests is gone.
    await vi.waitFor(() => {
      gc();
      expect(extras.map((ref) => ref.deref() === undefined)).toEqual([true, true, true]);
    });
    // And the answers still go back in OpenCode's own form.
    await remote.respond('opencode-que_2309dfd01001aQEsFqqjXdJZik', {
      action: 'accept',
      content: { answers: { 'Which database?': 'SQLite' } },
    });
    await remote.respond('opencode-per_2309eec49001KT6V00Q1w6x8xd', { action: 'accept', content: { choice: 'once' } });
    await vi.waitFor(() => expect(opencode.posts()).toHaveLength(2));
    expect(opencode.posts()).toEqual(
      expect.arrayContaining([
        { method: 'POST', url: '/question/que_2309dfd01001aQEsFqqjXdJZik/reply', body: { answers: [['SQLite']] } },
        { method: 'POST', url: '/permission/per_2309eec49001KT6V00Q1w6x8xd/reply', body: { reply: 'once' } },
      ]),
    );
  });

  it("[R12.19] a burst of turn ends for one session is one grace timer, not one per event, and retires the session's cards", async () => {
    const { remote, bridge, event } = await setup();
    event('permission.asked', permissionAsked());
    event('question.asked', questionAsked());
    await remote.next((record) => record.requestId === 'opencode-per_2309eec49001KT6V00Q1w6x8xd');
    await remote.next((record) => record.requestId === 'opencode-que_2309dfd01001aQEsFqqjXdJZik');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    for (let index = 0; index < 10_000; index += 1)
      bridge.receive({
        type: 'event',
        instance: 1,
        event: { type: 'session.idle', properties: { sessionID: SESSION } },
      });
    expect(vi.getTimerCount()).toBeLessThan(10);
    vi.runOnlyPendingTimers();
    vi.useRealTimers();
    expect(bridge.open()).toEqual([]);
  });
});

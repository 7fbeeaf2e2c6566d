import { describe, expect, it, vi } from 'vitest';
import { setUpPgTestLogs } from '../test-support/pg-test-logs';

const logs = setUpPgTestLogs();

describe('[R20.66] the machine presence board: which agents are connected to which replica', () => {
  it('[R20.66] a replica reads the others’ counts summed by machine, not its own; publishing fewer takes the rest off', async () => {
    const store = await logs.open(await logs.freshLogUrl());
    const [a, b, c] = [store.machinePresence('a'), store.machinePresence('b'), store.machinePresence('c')];
    await a.publish(
      new Map([
        ['laptop', 2],
        ['local', 1],
      ]),
    );
    await b.publish(new Map([['laptop', 1]]));
    expect(await c.elsewhere()).toEqual(
      new Map([
        ['laptop', 3],
        ['local', 1],
      ]),
    );
    expect(await a.elsewhere()).toEqual(new Map([['laptop', 1]]));
    await a.publish(new Map([['laptop', 1]]));
    expect(await c.elsewhere()).toEqual(new Map([['laptop', 2]]));
    await b.withdraw();
    await a.publish(new Map());
    expect(await c.elsewhere()).toEqual(new Map());
  });

  it('[R20.66] a lease not renewed runs out: a replica that died stops counting its agents, which reconnect elsewhere', async () => {
    const store = await logs.open(await logs.freshLogUrl());
    const dead = store.machinePresence('dead-replica', 300);
    const alive = store.machinePresence('alive');
    await dead.publish(new Map([['laptop', 1]]));
    expect(await alive.elsewhere()).toEqual(new Map([['laptop', 1]]));
    await vi.waitFor(async () => expect(await alive.elsewhere()).toEqual(new Map()), { timeout: 3_000 });
  });
});

import { describe, expect, it } from 'vitest';
import { type InteractionResolution } from '../contracts';
import { RequestWaiters } from './request-waiters';

const resolution: InteractionResolution = {
  requestId: 'r1',
  response: { action: 'accept', content: { answers: {} } },
  resolvedBy: 'user',
  resolvedAt: new Date(0).toISOString(),
};

describe('request waiters', () => {
  it('[R8.1] one outcome settles every call waiting on the request, then lets the request go', async () => {
    const idle: string[] = [];
    const waiters = new RequestWaiters((requestId) => idle.push(requestId));
    const first = waiters.wait('r1', new AbortController().signal);
    const second = waiters.wait('r1', new AbortController().signal);
    const other = waiters.wait('r2', new AbortController().signal);
    waiters.settle('r1', { resolution });
    await expect(first).resolves.toBe(resolution);
    await expect(second).resolves.toBe(resolution);
    expect(idle).toEqual(['r1']);
    waiters.failAll(new Error('closed'));
    await expect(other).rejects.toThrow('closed');
    expect(idle).toEqual(['r1', 'r2']);
  });

  it('[R8.3] an aborted call stops waiting; the request goes only when its last waiter does', async () => {
    const idle: string[] = [];
    const waiters = new RequestWaiters((requestId) => idle.push(requestId));
    const aborted = new AbortController();
    const kept = new AbortController();
    const gone = waiters.wait('r1', aborted.signal);
    const staying = waiters.wait('r1', kept.signal);
    aborted.abort(new Error('tool call aborted'));
    await expect(gone).rejects.toThrow('tool call aborted');
    expect(idle).toEqual([]);
    kept.abort();
    await expect(staying).rejects.toMatchObject({ name: 'AbortError' });
    expect(idle).toEqual(['r1']);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { type HostEvent } from '../contracts';
import { closeAllClients, connectRemote, connectRuntime } from './test-support/clients';
import { pairDevice } from './test-support/devices';
import { questionRequest } from './test-support/fixtures';
import { closeAllHosts, startTestHost, TEST_TOKEN } from './test-support/test-host';
import { expectItem } from '../core/test-support/expect-item';

afterEach(async () => {
  closeAllClients();
  await closeAllHosts();
});

const seqs = (events: readonly HostEvent[]) => events.map((event) => event.seq);

describe('remotes racing and resuming', () => {
  it('[R10.3] two remotes answer at once: one wins, the other gets already-resolved with the winner', async () => {
    const host = await startTestHost();
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const phone = await connectRemote(host.url, (await pairDevice(host, 'phone')).credential);
    const laptop = await connectRemote(host.url, (await pairDevice(host, 'laptop')).credential);
    const request = questionRequest();
    await runtime.socket.emitWithAck('announce', request);

    const [fromPhone, fromLaptop] = await Promise.all([
      phone.socket.emitWithAck('respond', {
        requestId: request.requestId,
        clientResponseId: 'phone-1',
        response: { action: 'accept', content: { answers: { 'Which database?': 'SQLite' } } },
      }),
      laptop.socket.emitWithAck('respond', {
        requestId: request.requestId,
        clientResponseId: 'laptop-1',
        response: { action: 'accept', content: { answers: { 'Which database?': 'Postgres (Recommended)' } } },
      }),
    ]);
    if (!fromPhone.ok || !fromLaptop.ok) throw new Error('both responses should be acked ok');
    expect([fromPhone.status, fromLaptop.status].sort()).toEqual(['accepted', 'already-resolved']);
    expect(fromLaptop.resolution).toEqual(fromPhone.resolution);
    const winner = fromPhone.status === 'accepted' ? 'phone-1' : 'laptop-1';
    expect(fromPhone.resolution.clientResponseId).toBe(winner);

    await vi.waitFor(() => expect(runtime.resolved).toHaveLength(1));
    expect(expectItem(runtime.resolved, 0).resolution).toEqual(fromPhone.resolution);
    const resolvedEvents = (await host.registry.readSince(0, 100)).filter(
      (event) => event.type === 'interaction.resolved',
    );
    expect(resolvedEvents).toHaveLength(1);
  });

  it('[R9.2] a remote offline for a while resumes from lastSeq with no gap and no duplicate', async () => {
    const host = await startTestHost();
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const phoneDevice = await pairDevice(host, 'phone');
    const phone = await connectRemote(host.url, phoneDevice.credential);
    const laptop = await connectRemote(host.url, (await pairDevice(host, 'laptop')).credential);
    await runtime.socket.emitWithAck('announce', questionRequest());
    await vi.waitFor(() => expect(phone.events.length).toBeGreaterThanOrEqual(2));
    const logId = expectItem(phone.snapshots, 0).logId;
    const lastSeq = Math.max(expectItem(phone.snapshots, 0).seq, ...seqs(phone.events));
    phone.socket.disconnect();

    // While the phone is away: new questions, an answer from the laptop, a preference change.
    const missed = [questionRequest(), questionRequest(), questionRequest()];
    for (const request of missed) await runtime.socket.emitWithAck('announce', request);
    await laptop.socket.emitWithAck('respond', {
      requestId: expectItem(missed, 0).requestId,
      clientResponseId: 'laptop-1',
      response: { action: 'accept', content: { answers: {} } },
    });
    await laptop.socket.emitWithAck('preferences:update', { askUserQuestionAutoResolutionEnabled: true });
    const headWhileAway = host.registry.projection.seq;

    const back = await connectRemote(host.url, phoneDevice.credential, { resume: { logId, lastSeq } });
    // Events keep flowing during and after the replay.
    const live = questionRequest();
    await runtime.socket.emitWithAck('announce', live);
    await vi.waitFor(() => expect(Math.max(0, ...seqs(back.events))).toBe(host.registry.projection.seq));

    expect(back.snapshots).toEqual([]);
    // Resumed by seq, so no snapshot brought the machines: the list comes on its own.
    expect(back.machineLists.map((list) => list.map((machine) => machine.id))).toEqual([['local']]);
    const expected = Array.from({ length: host.registry.projection.seq - lastSeq }, (_, index) => lastSeq + 1 + index);
    expect(seqs(back.events)).toEqual(expected);
    expect(headWhileAway).toBeGreaterThan(lastSeq);
    expect(
      back.events.some(
        (event) => event.type === 'interaction.requested' && event.interaction.requestId === live.requestId,
      ),
    ).toBe(true);
  });

  it('[R9.2] an up-to-date remote gets an empty batch; one ahead of the log gets a snapshot', async () => {
    const host = await startTestHost();
    const { credential } = await pairDevice(host);
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    await runtime.socket.emitWithAck('announce', questionRequest());
    const head = host.registry.projection.seq;
    const logId = host.registry.logId;
    const current = await connectRemote(host.url, credential, { resume: { logId, lastSeq: head } });
    await vi.waitFor(() => expect(current.batches).toHaveLength(1));
    expect(expectItem(current.batches, 0).events).toEqual([]);
    expect(current.snapshots).toEqual([]);
    const ahead = await connectRemote(host.url, credential, { resume: { logId, lastSeq: head + 50 } });
    await vi.waitFor(() => expect(ahead.snapshots).toHaveLength(1));
    expect(expectItem(ahead.snapshots, 0).seq).toBe(head);
    expect(expectItem(ahead.snapshots, 0).pending).toHaveLength(1);
  });

  it("[R10.6] a remote holding another log's seq gets a snapshot, even where that seq exists in this log", async () => {
    const host = await startTestHost();
    const { credential } = await pairDevice(host);
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    for (const request of [questionRequest(), questionRequest(), questionRequest()])
      await runtime.socket.emitWithAck('announce', request);
    const head = host.registry.projection.seq;
    expect(head).toBeGreaterThan(2);
    // A phone that saw seq 2 of a log since moved aside (a reset data dir) must not be replayed 3.. of this one.
    const reset = await connectRemote(host.url, credential, { resume: { logId: 'a-log-since-reset', lastSeq: 2 } });
    await vi.waitFor(() => expect(reset.snapshots).toHaveLength(1));
    expect(reset.batches).toEqual([]);
    expect(expectItem(reset.snapshots, 0)).toMatchObject({ logId: host.registry.logId, seq: head });
    expect(expectItem(reset.snapshots, 0).pending).toHaveLength(3);
    const same = await connectRemote(host.url, credential, { resume: { logId: host.registry.logId, lastSeq: 2 } });
    await vi.waitFor(() => expect(same.batches).toHaveLength(1));
    expect(same.snapshots).toEqual([]);
    expect(seqs(expectItem(same.batches, 0).events)).toEqual(Array.from({ length: head - 2 }, (_, index) => index + 3));
  });

  it('[R9.2] snapshot:get answers with the current snapshot', async () => {
    const host = await startTestHost();
    const remote = await connectRemote(host.url, (await pairDevice(host)).credential);
    const ack = await remote.socket.emitWithAck('snapshot:get');
    expect(ack).toMatchObject({
      ok: true,
      snapshot: { seq: host.registry.projection.seq, pending: [], hostVersion: expect.any(String) },
    });
  });
});

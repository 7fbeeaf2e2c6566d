import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeAllClients, connectRemote, connectRuntime } from './test-support/clients';
import { pairDevice } from './test-support/devices';
import { questionRequest } from './test-support/fixtures';
import { closeAllHosts, startTestHost, TEST_TOKEN } from './test-support/test-host';

afterEach(async () => {
  closeAllClients();
  await closeAllHosts();
});

describe('[R12.7] a live batch says how many wait after it', () => {
  it('[R12.7] announced, withdrawn, answered: each batch carries the count it leaves, not the one before it', async () => {
    const host = await startTestHost();
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const phone = await connectRemote(host.url, (await pairDevice(host)).credential);
    const totalAfter = async (type: string) => {
      await vi.waitFor(() =>
        expect(phone.batches.some((batch) => batch.events.some((e) => e.type === type))).toBe(true),
      );
      const batch = phone.batches.findLast((candidate) => candidate.events.some((event) => event.type === type));
      phone.batches.length = 0;
      return batch?.pendingTotal;
    };

    const first = questionRequest();
    await runtime.socket.emitWithAck('announce', first);
    expect(await totalAfter('interaction.requested')).toBe(1);
    await runtime.socket.emitWithAck('announce', questionRequest());
    expect(await totalAfter('interaction.requested')).toBe(2);

    await runtime.socket.emitWithAck('withdraw', { requestId: first.requestId, reason: 'answered in the terminal' });
    expect(await totalAfter('interaction.withdrawn')).toBe(1);
    expect(host.registry.projection.pendingCount()).toBe(1);
  });
});

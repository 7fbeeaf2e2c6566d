import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeAllClients, connectRemote, connectRuntime } from './test-support/clients';
import { pairDevice } from './test-support/devices';
import { questionRequest } from './test-support/fixtures';
import { closeAllHosts, startTestHost, TEST_TOKEN } from './test-support/test-host';

afterEach(async () => {
  closeAllClients();
  await closeAllHosts();
});

describe('[R17.6] the machine list reaches a remote before what a machine that just came back asks', () => {
  it('[R17.6] an agent that connects and asks at once: its machine is listed as connected before its question arrives', async () => {
    const host = await startTestHost();
    const phone = await connectRemote(host.url, (await pairDevice(host)).credential);
    expect(phone.snapshots[0]?.machines[0]?.connectedAgents).toBe(0);
    // What the phone hears, in order: how many agents the hub has, then each question.
    const heard: string[] = [];
    phone.socket.onAny((event: string, payload: unknown) => {
      if (event === 'machines') {
        const { machines } = payload as { machines: { connectedAgents: number }[] };
        heard.push(`machines ${machines[0]?.connectedAgents}`);
      }
      if (event === 'events') {
        const { events } = payload as { events: { type: string }[] };
        for (const hostEvent of events) if (hostEvent.type === 'interaction.requested') heard.push('question');
      }
    });

    const hook = await connectRuntime(host.url, TEST_TOKEN, 'one-shot hook');
    await hook.socket.emitWithAck('announce', questionRequest());
    await vi.waitFor(() => expect(heard).toContain('question'));
    expect(heard.slice(0, heard.indexOf('question'))).toContain('machines 1');
  });
});

import { describe, expect, it, vi } from 'vitest';
import { connectRemote } from '../../host/test-support/clients';
import { cliTestHost, WAIT } from '../test-support/cli-test-host';
import { TWO_QUESTIONS } from '../test-support/mcp-scenarios';
import { pairDevice } from '../../host/test-support/devices';

const { host: testHost, spawn } = cliTestHost();

/** `askaway mcp` with JSON-RPC lines on stdin. */
function spawnMcp() {
  const cli = spawn(['mcp']);
  const send = (message: object) => cli.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  return { ...cli, send };
}

describe('askaway mcp, stopped while a question waits', () => {
  it.each(['SIGTERM', 'SIGHUP'] as const)(
    '[R11.1][R8.3] on %s withdraws the pending question from the phone, then exits',
    async (signal) => {
      const phone = await connectRemote(testHost().url, (await pairDevice(testHost())).credential);
      const before = new Set(testHost().registry.projection.interactions.keys());
      const mcp = spawnMcp();
      mcp.send({
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'signal-test', version: '1' } },
      });
      mcp.send({ method: 'notifications/initialized' });
      mcp.send({ id: 2, method: 'tools/call', params: { name: 'AskUserQuestion', arguments: TWO_QUESTIONS } });

      let requestId = '';
      await vi.waitFor(() => {
        const requested = phone.events.find(
          (event) => event.type === 'interaction.requested' && !before.has(event.interaction.requestId),
        );
        expect(requested).toBeDefined();
        requestId = requested?.type === 'interaction.requested' ? requested.interaction.requestId : '';
      }, WAIT);
      mcp.child.kill(signal);

      await vi.waitFor(
        () =>
          expect(
            phone.events.some((event) => event.type === 'interaction.withdrawn' && event.requestId === requestId),
          ).toBe(true),
        WAIT,
      );
      expect(await mcp.exited).toBe(0);
      expect(testHost().registry.projection.get(requestId)?.status).toBe('withdrawn');
    },
  );
});

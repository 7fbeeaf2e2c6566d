import { describe, expect, it, vi } from 'vitest';
import { type HostEvent } from '../../../contracts';
import { connectRemote } from '../../../host/test-support/clients';
import { cliTestHost, WAIT } from '../../test-support/cli-test-host';
import { HOOK_CANCELLED_REASON } from './handle-hook';
import { pairDevice } from '../../../host/test-support/devices';

const { host: testHost, spawn } = cliTestHost();

/** `askaway hook claude-code` with the hook JSON on stdin. */
function spawnHook(body: unknown) {
  const cli = spawn(['hook', 'claude-code']);
  cli.child.stdin.end(JSON.stringify(body));
  return cli;
}

const requestedFor = (events: readonly HostEvent[], toolUseId: string) =>
  events.find((event) => event.type === 'interaction.requested' && event.interaction.toolUseId === toolUseId);

describe('askaway hook claude-code, cancelled by Claude Code', () => {
  it.each(['SIGTERM', 'SIGHUP'] as const)(
    '[R11.2][R8.3] on %s withdraws the question from the phone, then exits',
    async (signal) => {
      const phone = await connectRemote(testHost().url, (await pairDevice(testHost())).credential);
      const toolUseId = `toolu_signal_${signal}_${Date.now()}`;
      const hook = spawnHook({
        session_id: 'c0ffee00-session',
        cwd: '/home/dev/my-app',
        hook_event_name: 'PreToolUse',
        tool_name: 'AskUserQuestion',
        tool_use_id: toolUseId,
        tool_input: {
          questions: [
            {
              question: 'Ship it today?',
              header: 'Ship',
              options: [
                { label: 'Yes', description: 'Deploy now' },
                { label: 'No', description: 'Wait for Monday' },
              ],
              multiSelect: false,
            },
          ],
        },
      });

      await vi.waitFor(() => expect(requestedFor(phone.events, toolUseId)).toBeDefined(), WAIT);
      const requested = requestedFor(phone.events, toolUseId);
      const requestId = requested?.type === 'interaction.requested' ? requested.interaction.requestId : '';
      hook.child.kill(signal);

      await vi.waitFor(
        () =>
          expect(
            phone.events.find((event) => event.type === 'interaction.withdrawn' && event.requestId === requestId),
          ).toMatchObject({
            reason: HOOK_CANCELLED_REASON,
          }),
        WAIT,
      );
      expect(await hook.exited).toBe(0);
      // Claude Code stopped listening; the hook does not answer into a closed pipe.
      expect(hook.stdout()).toBe('');
      expect(testHost().registry.projection.get(requestId)?.status).toBe('withdrawn');
    },
  );
});

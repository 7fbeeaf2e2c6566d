import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HostEvent } from '../../contracts';
import { type Host } from '../../host';
import { closeAllClients, connectRemote } from '../../host/test-support/clients';
import { closeAllHosts, startTestHost, tempDir } from '../../host/test-support/test-host';
import { HOOK_CANCELLED_REASON } from './handle-hook';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const WAIT = { timeout: 10_000, interval: 50 };

let host: Host;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  host = await startTestHost();
});

afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});

afterAll(async () => {
  closeAllClients();
  await closeAllHosts();
});

/** `askaway hook claude-code` from source in one process (as `npx tsx bin/cli.ts` runs it), so signals reach it directly. */
function spawnHook(body: unknown) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bin/cli.ts'), 'hook', 'claude-code'], {
    cwd: ROOT,
    env: { NODE_ENV: 'test', PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ASKAWAY_URL: host.url, ASKAWAY_TOKEN: host.token, ASKAWAY_DATA_DIR: tempDir() },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  child.stdin.end(JSON.stringify(body));
  return { child, exited, stdout: () => stdout };
}

const requestedFor = (events: readonly HostEvent[], toolUseId: string) =>
  events.find((event) => event.type === 'interaction.requested' && event.interaction.toolUseId === toolUseId);

describe('askaway hook claude-code, cancelled by Claude Code', () => {
  it.each(['SIGTERM', 'SIGHUP'] as const)('[R11.2][R8.3] on %s withdraws the question from the phone, then exits', async (signal) => {
    const phone = await connectRemote(host.url, host.token);
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
      () => expect(phone.events.find((event) => event.type === 'interaction.withdrawn' && event.requestId === requestId)).toMatchObject({
        reason: HOOK_CANCELLED_REASON,
      }),
      WAIT,
    );
    expect(await hook.exited).toBe(0);
    // Claude Code stopped listening; the hook does not answer into a closed pipe.
    expect(hook.stdout()).toBe('');
    expect(host.registry.projection.get(requestId)?.status).toBe('withdrawn');
  });
});

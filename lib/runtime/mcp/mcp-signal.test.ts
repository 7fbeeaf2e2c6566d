import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Host } from '../../host';
import { closeAllClients, connectRemote } from '../../host/test-support/clients';
import { closeAllHosts, startTestHost, tempDir } from '../../host/test-support/test-host';
import { TWO_QUESTIONS } from '../test-support/mcp-scenarios';

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

/** `askaway mcp` in one process (no tsx wrapper), so signals reach the server itself; JSON-RPC lines on stdin. */
function spawnMcp() {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bin/cli.ts'), 'mcp'], {
    cwd: ROOT,
    env: { NODE_ENV: 'test', PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ASKAWAY_URL: host.url, ASKAWAY_TOKEN: host.token, ASKAWAY_DATA_DIR: tempDir() },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.add(child);
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  return { child, exited, send };
}

describe('askaway mcp, stopped while a question waits', () => {
  it.each(['SIGTERM', 'SIGHUP'] as const)('[R11.1][R8.3] on %s withdraws the pending question from the phone, then exits', async (signal) => {
    const phone = await connectRemote(host.url, host.token);
    const before = new Set(host.registry.projection.interactions.keys());
    const mcp = spawnMcp();
    mcp.send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'signal-test', version: '1' } } });
    mcp.send({ method: 'notifications/initialized' });
    mcp.send({ id: 2, method: 'tools/call', params: { name: 'AskUserQuestion', arguments: TWO_QUESTIONS } });

    let requestId = '';
    await vi.waitFor(() => {
      const requested = phone.events.find((event) => event.type === 'interaction.requested' && !before.has(event.interaction.requestId));
      expect(requested).toBeDefined();
      requestId = requested?.type === 'interaction.requested' ? requested.interaction.requestId : '';
    }, WAIT);
    mcp.child.kill(signal);

    await vi.waitFor(() => expect(phone.events.some((event) => event.type === 'interaction.withdrawn' && event.requestId === requestId)).toBe(true), WAIT);
    expect(await mcp.exited).toBe(0);
    expect(host.registry.projection.get(requestId)?.status).toBe('withdrawn');
  });
});

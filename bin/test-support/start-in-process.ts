import { vi } from 'vitest';
import { startCommand } from '../commands/start';

/**
 * Runs `askaway start <argv>` in this process with its stdout and stderr captured: only for starts that stop
 * before a host runs (bad flags, a refused --tailscale).
 */
export async function startInProcess(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = { stdout: '', stderr: '' };
  const capture = (stream: 'stdout' | 'stderr') =>
    vi.spyOn(process[stream], 'write').mockImplementation((chunk: string | Uint8Array) => {
      output[stream] += String(chunk);
      return true;
    });
  const spies = [capture('stdout'), capture('stderr')];
  try {
    const code = await startCommand.run(argv);
    return { code, ...output };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type askawayCodexHooks, codexHooksFile, writeCodexHooks } from './install';

const homes: string[] = [];
const home = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'askaway-codex-install-'));
  homes.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('[R18.15] askaway hook install --agent codex', () => {
  it('[R18.15] writes one PermissionRequest hook into hooks.json, keeping the person’s other hooks; safe to repeat', async () => {
    const file = codexHooksFile(home());
    const theirs = { hooks: [{ type: 'command', command: 'notify-send hi' }] };
    writeFileSync(file, JSON.stringify({ hooks: { PermissionRequest: [theirs], Stop: [theirs] } }));
    expect(await writeCodexHooks(file, { timeoutMs: 45_000 })).toEqual({ changed: true });
    const written = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    expect(written).toEqual({
      hooks: {
        PermissionRequest: [
          theirs,
          {
            hooks: [
              {
                type: 'command',
                command: 'askaway hook codex --timeout 45s',
                timeout: 75,
                statusMessage: 'Asking your phone (Askaway)',
              },
            ],
          },
        ],
        Stop: [theirs],
      },
    });
    expect(await writeCodexHooks(file, { timeoutMs: 45_000 })).toEqual({ changed: false });
    // Another command replaces the old Askaway hook instead of adding a second one.
    await writeCodexHooks(file, { command: 'node /x/dist/cli.js hook codex' });
    const hooks = (JSON.parse(readFileSync(file, 'utf8')) as ReturnType<typeof askawayCodexHooks>).hooks;
    expect(hooks.PermissionRequest.map((group) => group.hooks[0]?.command)).toEqual([
      'notify-send hi',
      'node /x/dist/cli.js hook codex',
    ]);
  });

  it('[R18.15] refuses a hooks.json that is not JSON, and changes nothing', async () => {
    const file = codexHooksFile(home());
    writeFileSync(file, '{ not json');
    await expect(writeCodexHooks(file)).rejects.toThrow(/not valid JSON/);
    expect(readFileSync(file, 'utf8')).toBe('{ not json');
  });
});

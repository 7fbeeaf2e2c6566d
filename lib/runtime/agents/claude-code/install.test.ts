import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../host/test-support/test-host';
import { runCli } from '../../test-support/run-cli';
import { askawayHookSettings, mergeHookSettings, settingsPath, writeHookSettings } from './install';

const existing = {
  permissions: { allow: ['Bash(npm test)'] },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh' }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
  },
};

describe('hook install', () => {
  it('[R11.8] prints one PermissionRequest command hook for AskUserQuestion and ExitPlanMode, for a day', () => {
    expect(askawayHookSettings()).toEqual({
      hooks: {
        PermissionRequest: [
          {
            matcher: 'AskUserQuestion|ExitPlanMode',
            hooks: [{ type: 'command', command: 'askaway hook claude-code', timeout: 86_400 }],
          },
        ],
      },
    });
    const http = askawayHookSettings({ http: { url: 'http://127.0.0.1:4417' }, allTools: true }).hooks;
    expect(http.PermissionRequest?.[0]).toEqual({
      matcher: '*',
      hooks: [
        {
          type: 'http',
          url: 'http://127.0.0.1:4417/hooks/claude-code?allTools=1',
          timeout: 86_400,
          headers: { Authorization: 'Bearer $ASKAWAY_TOKEN' },
          allowedEnvVars: ['ASKAWAY_TOKEN'],
        },
      ],
    });
  });

  it('[R11.2] --pre-tool-use keeps the old path, the phone only: AskUserQuestion from PreToolUse', () => {
    expect(askawayHookSettings({ preToolUse: true })).toEqual({
      hooks: {
        PreToolUse: [
          {
            matcher: 'AskUserQuestion',
            hooks: [{ type: 'command', command: 'askaway hook claude-code', timeout: 600 }],
          },
        ],
        PermissionRequest: [
          {
            matcher: 'ExitPlanMode',
            hooks: [{ type: 'command', command: 'askaway hook claude-code', timeout: 86_400 }],
          },
        ],
      },
    });
  });

  it('[R11.2][R11.8] merges without clobbering other hooks, is idempotent, and moves an older install off PreToolUse', () => {
    const once = mergeHookSettings(existing);
    expect(once.permissions).toEqual(existing.permissions);
    const hooks = once.hooks as Record<string, unknown[]>;
    expect(hooks.Stop).toEqual(existing.hooks.Stop);
    expect(hooks.PreToolUse).toEqual(existing.hooks.PreToolUse);
    expect(hooks.PermissionRequest).toEqual(askawayHookSettings().hooks.PermissionRequest);
    expect(mergeHookSettings(once)).toEqual(once);
    // Switching options replaces our entries instead of adding more.
    const switched = mergeHookSettings(once, { allTools: true }).hooks as Record<string, { matcher?: string }[]>;
    expect(switched.PermissionRequest?.map((group) => group.matcher)).toEqual(['*']);
    // What `askaway hook install --write` wrote before: its PreToolUse entry goes, the person's Bash guard stays.
    const older = mergeHookSettings(existing, { preToolUse: true });
    expect((older.hooks as Record<string, unknown[]>).PreToolUse).toHaveLength(2);
    const upgraded = mergeHookSettings(older).hooks as Record<string, unknown[]>;
    expect(upgraded.PreToolUse).toEqual(existing.hooks.PreToolUse);
    expect(upgraded.PermissionRequest).toEqual(askawayHookSettings().hooks.PermissionRequest);
    // An event that held only ours goes entirely.
    const onlyOurs = mergeHookSettings({}, { preToolUse: true });
    expect(Object.keys(mergeHookSettings(onlyOurs).hooks as object)).toEqual(['PermissionRequest']);
  });

  it('[R11.2] --write creates or updates .claude/settings.json and reports no change the second time', async () => {
    const project = tempDir('askaway-project-');
    const file = settingsPath({ user: false, cwd: project, home: '/nowhere' });
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(existing));
    expect(await writeHookSettings(file)).toEqual({ changed: true });
    expect(await writeHookSettings(file)).toEqual({ changed: false });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(mergeHookSettings(existing));
    writeFileSync(file, '{ broken');
    await expect(writeHookSettings(file)).rejects.toThrow('not valid JSON');
    expect(readFileSync(file, 'utf8')).toBe('{ broken');
  });

  it('askaway hook install prints the settings; --write --user writes ~/.claude/settings.json', async () => {
    const printed = await runCli(['hook', 'install']);
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual(askawayHookSettings());
    const home = tempDir('askaway-home-');
    const written = await runCli(['hook', 'install', '--write', '--user'], { env: { HOME: home } });
    expect(written.code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(home, '.claude', 'settings.json'), 'utf8'))).toEqual(
      askawayHookSettings(),
    );
    expect((await runCli(['hook', '--help'])).stdout).toContain('askaway hook install');
    expect((await runCli(['hook', 'install', '--bogus'])).code).toBe(2);
  });

  it('[R11.6][R12.1] --http refuses a private host address Claude Code would block, and writes nothing', async () => {
    const project = tempDir('askaway-project-');
    const refused = await runCli(['hook', 'install', '--http', '--write'], {
      cwd: project,
      env: { ASKAWAY_URL: 'http://192.168.1.20:4417', ASKAWAY_DATA_DIR: tempDir() },
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('192.168.1.20 is private (192.168.0.0/16)');
    expect(refused.stderr).toContain('Use the command hook instead');
    expect(() => readFileSync(path.join(project, '.claude', 'settings.json'))).toThrow();
  });
});

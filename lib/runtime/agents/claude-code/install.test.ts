import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../host/test-support/test-host';
import { runCli } from '../../test-support/run-cli';
import {
  askawayHookSettings,
  mergeHookSettings,
  runsElicitationHook,
  settingsPath,
  writeHookSettings,
} from './install';

const existing = {
  permissions: { allow: ['Bash(npm test)'] },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh' }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
  },
};

describe('hook install', () => {
  it('[R11.8][R11.11][R19.50] prints one PermissionRequest command hook for AskUserQuestion and ExitPlanMode, for a day, the Elicitation hook and the finished-turn hooks', () => {
    const card = {
      type: 'command',
      command: 'askaway hook claude-code --finished-card',
      async: true,
      timeout: 86_400,
    };
    expect(askawayHookSettings()).toEqual({
      hooks: {
        PermissionRequest: [
          {
            matcher: 'AskUserQuestion|ExitPlanMode',
            hooks: [{ type: 'command', command: 'askaway hook claude-code', timeout: 86_400 }],
          },
        ],
        // The form's 30 s wait and time to withdraw the card before Claude Code shows its own form.
        Elicitation: [{ hooks: [{ type: 'command', command: 'askaway hook claude-code', timeout: 60 }] }],
        // The waiting hook within Claude Code's own 600 s, and the background one that holds nothing.
        Stop: [{ hooks: [{ type: 'command', command: 'askaway hook claude-code', timeout: 600 }, card] }],
        StopFailure: [{ hooks: [card] }],
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
    // The form hook takes no --all-tools: it answers forms only.
    expect(http.Elicitation?.[0]?.hooks[0]).toMatchObject({
      url: 'http://127.0.0.1:4417/hooks/claude-code',
      timeout: 60,
    });
  });

  it('[R11.11] --form-wait goes to the Elicitation hook only, whose timeout stays above it; forms can be left out', () => {
    const waiting = askawayHookSettings({
      formWaitMs: 90_000,
      allTools: true,
      command: 'node cli.js hook claude-code',
    });
    expect(waiting.hooks.Elicitation).toEqual([
      { hooks: [{ type: 'command', command: 'node cli.js hook claude-code --form-wait 90s', timeout: 120 }] },
    ]);
    expect(waiting.hooks.PermissionRequest?.[0]?.hooks[0]?.command).toBe('node cli.js hook claude-code --all-tools');
    const http = askawayHookSettings({ http: { url: 'http://127.0.0.1:4417/' }, formWaitMs: 2_500 }).hooks;
    expect(http.Elicitation?.[0]?.hooks[0]).toMatchObject({
      url: 'http://127.0.0.1:4417/hooks/claude-code?formWait=3s',
      timeout: 33,
    });
    expect(Object.keys(askawayHookSettings({ forms: false }).hooks)).toEqual([
      'PermissionRequest',
      'Stop',
      'StopFailure',
    ]);
  });

  it('[R19.50][R19.53] --reply-wait sets the waiting Stop hook and its timeout; --no-reply keeps only the background one; the HTTP hook and --no-finished-turns have none', () => {
    const command = 'node cli.js hook claude-code';
    const waiting = askawayHookSettings({ command, replyWaitMs: 3_600_000, allTools: true }).hooks;
    expect(waiting.Stop?.[0]?.hooks).toEqual([
      { type: 'command', command: `${command} --reply-wait 3600s`, timeout: 3_660 },
      { type: 'command', command: `${command} --finished-card`, async: true, timeout: 86_400 },
    ]);
    const noReply = askawayHookSettings({ command, noReply: true }).hooks;
    const quiet = { type: 'command', command: `${command} --finished-card --no-reply`, async: true, timeout: 86_400 };
    expect(noReply.Stop).toEqual([{ hooks: [quiet] }]);
    expect(noReply.StopFailure).toEqual([{ hooks: [quiet] }]);
    for (const options of [{ finishedTurns: false }, { http: { url: 'http://127.0.0.1:4417' } }, { preToolUse: true }])
      expect(askawayHookSettings(options).hooks).not.toHaveProperty('Stop');
    // Switching replies off replaces our Stop hooks and keeps the person's own.
    const once = mergeHookSettings(existing);
    const off = mergeHookSettings(once, { noReply: true }).hooks as Record<string, unknown[]>;
    expect(off.Stop).toEqual([...existing.hooks.Stop, ...(askawayHookSettings({ noReply: true }).hooks.Stop ?? [])]);
    const none = mergeHookSettings(once, { finishedTurns: false }).hooks as Record<string, unknown[]>;
    expect(none.Stop).toEqual(existing.hooks.Stop);
    expect(none).not.toHaveProperty('StopFailure');
  });

  it('[R11.11] tells the Claude Code versions that run the Elicitation hook (2.1.63 on)', () => {
    expect(runsElicitationHook('2.1.332 (Claude Code)')).toBe(true);
    expect(runsElicitationHook('2.1.63')).toBe(true);
    expect(runsElicitationHook('3.0.0')).toBe(true);
    expect(runsElicitationHook('2.1.62 (Claude Code)')).toBe(false);
    expect(runsElicitationHook('2.0.99')).toBe(false);
    expect(runsElicitationHook('claude: command not found')).toBeUndefined();
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
    expect(hooks.Stop).toEqual([...existing.hooks.Stop, ...(askawayHookSettings().hooks.Stop ?? [])]);
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
    expect(Object.keys(mergeHookSettings(onlyOurs).hooks as object)).toEqual([
      'PermissionRequest',
      'Elicitation',
      'Stop',
      'StopFailure',
    ]);
  });

  it('[R11.2] a hook installed with --command is ours on the next install, whichever command installs it then', () => {
    const checkout = 'node /home/dev/askaway/dist/cli.js hook claude-code';
    const fromCheckout = mergeHookSettings(existing, { command: checkout });
    const again = mergeHookSettings(fromCheckout, { command: checkout });
    expect(again).toEqual(fromCheckout);
    const commands = (settings: Record<string, unknown>) =>
      Object.values(settings.hooks as Record<string, { hooks: { command?: string }[] }[]>).flatMap((groups) =>
        groups.flatMap((group) => group.hooks.map((hook) => hook.command ?? '')),
      );
    // Back to the command on PATH: every checkout entry is replaced, the person's own hooks stay.
    const onPath = mergeHookSettings(fromCheckout);
    expect(commands(onPath).filter((command) => command.includes('dist/cli.js'))).toEqual([]);
    expect(onPath).toEqual(mergeHookSettings(existing));
  });

  it('[R11.11] the Elicitation hook joins the person’s own, replaces ours, and leaves when forms are off', () => {
    const theirs = { hooks: [{ type: 'command', command: './log-forms.sh' }] };
    const withOthers = { ...existing, hooks: { ...existing.hooks, Elicitation: [theirs] } };
    const once = mergeHookSettings(withOthers).hooks as Record<string, unknown[]>;
    expect(once.Elicitation).toEqual([theirs, ...(askawayHookSettings().hooks.Elicitation ?? [])]);
    const longer = mergeHookSettings({ hooks: once }, { formWaitMs: 120_000 }).hooks as Record<string, unknown[]>;
    expect(longer.Elicitation).toEqual([
      theirs,
      ...(askawayHookSettings({ formWaitMs: 120_000 }).hooks.Elicitation ?? []),
    ]);
    const off = mergeHookSettings({ hooks: once }, { forms: false }).hooks as Record<string, unknown[]>;
    expect(off.Elicitation).toEqual([theirs]);
    expect(mergeHookSettings(mergeHookSettings({}), { forms: false }).hooks).not.toHaveProperty('Elicitation');
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

  it('[R11.11] leaves the form hook out for a Claude Code on PATH older than 2.1.63, which would skip the file', async () => {
    const bin = tempDir('askaway-bin-');
    const claude = path.join(bin, 'claude');
    writeFileSync(claude, '#!/bin/sh\necho "2.1.52 (Claude Code)"\n');
    chmodSync(claude, 0o755);
    const env = { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
    const printed = await runCli(['hook', 'install'], { env });
    expect(JSON.parse(printed.stdout)).toEqual(askawayHookSettings({ forms: false }));
    expect(printed.stderr).toContain('Claude Code 2.1.52 has no Elicitation hook (2.1.63 added it)');
    writeFileSync(claude, '#!/bin/sh\necho "2.1.332 (Claude Code)"\n');
    expect(JSON.parse((await runCli(['hook', 'install', '--form-wait', '45s'], { env })).stdout)).toEqual(
      askawayHookSettings({ formWaitMs: 45_000 }),
    );
    expect((await runCli(['hook', 'install', '--form-wait', 'soon'], { env })).code).toBe(2);
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

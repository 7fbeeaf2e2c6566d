import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { tempDir } from '../lib/host/test-support/test-host';
import { PLUGIN_MARKER } from '../lib/runtime/agents/opencode/install';
import { runCli } from '../lib/runtime/test-support/run-cli';
import { openCodeInstallMain } from './commands/opencode';

/** `askaway opencode install <argv>` in-process, in a fresh HOME and XDG config folder. */
function setup() {
  const root = tempDir('askaway-opencode-install-');
  const home = path.join(root, 'home');
  const config = path.join(root, 'config');
  const project = path.join(root, 'project');
  for (const dir of [home, config, project]) mkdirSync(dir, { recursive: true });
  const run = async (...argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await openCodeInstallMain({
      argv,
      cwd: project,
      env: { XDG_CONFIG_HOME: config },
      home,
      source: inject('openCodePlugin'),
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
    });
    return { code, stdout, stderr };
  };
  return { root, home, config, project, run, global: path.join(config, 'opencode', 'plugins', 'askaway.js') };
}

describe('[R18.27] askaway opencode install', () => {
  it("[R18.27] writes the plugin to OpenCode's global folder, keeps the person's config and plugins, and is safe to repeat", async () => {
    const { config, run, global } = setup();
    const opencodeJson = path.join(config, 'opencode', 'opencode.json');
    const theirs = path.join(config, 'opencode', 'plugins', 'their-plugin.js');
    mkdirSync(path.dirname(theirs), { recursive: true });
    writeFileSync(opencodeJson, '{ "plugin": ["their-npm-plugin"], "permission": { "bash": "ask" } }\n');
    writeFileSync(theirs, 'export const Theirs = async () => ({});\n');

    const first = await run();
    expect(first).toMatchObject({ code: 0, stdout: expect.stringContaining(`written to ${global}`) });
    const text = readFileSync(global, 'utf8');
    expect(text.startsWith(PLUGIN_MARKER)).toBe(true);
    expect(text).toContain('const ASKAWAY_OPENCODE = {"command":"askaway opencode bridge"');
    expect(readFileSync(opencodeJson, 'utf8')).toBe(
      '{ "plugin": ["their-npm-plugin"], "permission": { "bash": "ask" } }\n',
    );
    expect(readFileSync(theirs, 'utf8')).toBe('export const Theirs = async () => ({});\n');

    expect(await run()).toMatchObject({ code: 0, stdout: `${global} already has this Askaway plugin\n` });
    expect(readFileSync(global, 'utf8')).toBe(text);
    // Another command replaces Askaway's own file, nothing else.
    expect((await run('--command', 'node /opt/askaway/dist/cli.js opencode bridge')).code).toBe(0);
    expect(readFileSync(global, 'utf8')).toContain('"command":"node /opt/askaway/dist/cli.js opencode bridge"');
  });

  it('[R18.27] --project writes to the project’s .opencode/plugins; --remove takes only Askaway’s file away', async () => {
    const { project, run, global } = setup();
    const file = path.join(project, '.opencode', 'plugins', 'askaway.js');
    expect((await run('--project')).code).toBe(0);
    expect(readFileSync(file, 'utf8').startsWith(PLUGIN_MARKER)).toBe(true);
    expect(await run('--project', '--remove')).toMatchObject({ code: 0, stdout: `Removed ${file}\n` });
    expect(await run('--remove')).toMatchObject({ code: 0, stdout: `No Askaway plugin at ${global}\n` });
  });

  it('[R18.27] a file of the same name that is not Askaway’s is left alone; bad flags exit 2', async () => {
    const { run, global } = setup();
    mkdirSync(path.dirname(global), { recursive: true });
    writeFileSync(global, '// someone else\n');
    expect(await run()).toMatchObject({ code: 1, stderr: expect.stringContaining('is not Askaway') });
    expect(await run('--remove')).toMatchObject({ code: 1 });
    expect(readFileSync(global, 'utf8')).toBe('// someone else\n');
    expect(await run('--global')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unexpected argument "--global"'),
    });
    expect(await run('--command')).toMatchObject({ code: 2 });
  });

  it('[R18.27] the built CLI carries the plugin: a real `askaway opencode install --project` writes it', async () => {
    const { project, home } = setup();
    const result = await runCli(['opencode', 'install', '--project', project], { env: { HOME: home } });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const text = readFileSync(path.join(project, '.opencode', 'plugins', 'askaway.js'), 'utf8');
    expect(text).toContain(inject('openCodePlugin').trimEnd());
  });
});

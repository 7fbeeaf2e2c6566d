import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, inject, it, vi } from 'vitest';
import { pairDevice } from '../../../host/test-support/devices';
import { closeAllHosts, startTestHost, TEST_TOKEN } from '../../../host/test-support/test-host';
import { cliCommand } from '../../test-support/run-cli';
import { connectScriptedRemote, type ScriptedRemote } from '../../test-support/scripted-remote';
import { questionAsked, SESSION } from './fixtures';
import { pluginFileText } from './install';
import { type OpenCodeHooks, type OpenCodePluginInput } from './plugin';
import { OPENCODE_CLOSED_REASON } from './terminal-answer';
import { FakeOpenCode } from './test-support/fake-opencode';

// The plugin as `askaway opencode install` writes it, loaded as OpenCode loads it (an ES module whose exports
// are plugin functions), with a real `askaway opencode bridge` process and a real host behind it. OpenCode's
// client is faked by its routes.

const remotes: ScriptedRemote[] = [];
const disposers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const dispose of disposers.splice(0)) await dispose();
  for (const remote of remotes.splice(0)) remote.close();
  vi.unstubAllEnvs();
});
afterAll(closeAllHosts);

type Plugin = (input: OpenCodePluginInput) => Promise<OpenCodeHooks>;

/** Writes the installed file into a folder of its own and imports it. */
async function loadPlugin(): Promise<{ plugin: Plugin; text: string; exports: string[] }> {
  const cli = cliCommand(['opencode', 'bridge']);
  const command = [cli.command, ...cli.args].map((part) => JSON.stringify(part)).join(' ');
  const text = pluginFileText(inject('openCodePlugin'), { command, version: 'test' });
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'askaway-opencode-plugin-')), 'askaway.js');
  writeFileSync(file, text);
  const loaded = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Record<string, unknown>;
  const plugin = loaded.AskawayOpenCode;
  if (typeof plugin !== 'function') throw new Error('the plugin exports no AskawayOpenCode');
  return { plugin: plugin as Plugin, text, exports: Object.keys(loaded) };
}

/** OpenCode's SDK client for one directory, answered by the fake's routes. */
function clientOf(opencode: FakeOpenCode): OpenCodePluginInput['client'] {
  const respond = (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const { status, data, error } = opencode.answer({ type: 'request', id: 0, instance: 0, method, url, body });
    return Promise.resolve({ data, error, response: { status } });
  };
  return { _client: { get: ({ url }) => respond('GET', url), post: ({ url, body }) => respond('POST', url, body) } };
}

describe('[R18.20][R18.21] the plugin file and its bridge', () => {
  it('[R18.20] the installed file imports only Node built-ins and exports only the plugin function', async () => {
    const { text, exports } = await loadPlugin();
    const imports = [...text.matchAll(/^import .* from "([^"]+)";$/gm)].map((match) => match[1]);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.every((name) => name?.startsWith('node:'))).toBe(true);
    expect(text).not.toMatch(/\brequire\(|@opencode-ai|zod/);
    expect(exports).toEqual(['AskawayOpenCode']);
  });

  it('[R18.21] events go to a bridge process, the phone answers through OpenCode’s client, a dead bridge is restarted, and closing withdraws what is open', async () => {
    const host = await startTestHost();
    const remote = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
    remotes.push(remote);
    vi.stubEnv('ASKAWAY_URL', host.url);
    vi.stubEnv('ASKAWAY_TOKEN', TEST_TOKEN);
    vi.stubEnv('ASKAWAY_OPENCODE_LOG', path.join(mkdtempSync(path.join(os.tmpdir(), 'askaway-oc-log-')), 'bridge.log'));
    const opencode = new FakeOpenCode();
    opencode.status[SESSION] = { type: 'busy' };
    const { plugin } = await loadPlugin();
    const hooks = await plugin({ client: clientOf(opencode), directory: '/home/ada/shop' });
    let disposed = false;
    const dispose = async () => {
      if (disposed) return;
      disposed = true;
      await hooks.dispose?.();
    };
    disposers.push(dispose);
    // The bridge said hello: it asked for OpenCode's version and what is pending.
    await vi.waitFor(() => expect(opencode.calls.map((call) => call.url)).toContain('/permission'), {
      timeout: 10_000,
    });
    // A second copy of the plugin (global and project) for the same directory stays quiet.
    expect(await plugin({ client: clientOf(new FakeOpenCode()), directory: '/home/ada/shop' })).toEqual({});

    const asked = questionAsked({ id: 'que_plugin' });
    opencode.questions.push(asked);
    await hooks.event?.({ event: { type: 'question.asked', properties: asked } });
    const record = await remote.next((candidate) => candidate.requestId === 'opencode-que_plugin');
    expect(record.agent).toEqual({ kind: 'opencode', name: 'OpenCode', version: '1.18.33' });
    await remote.respond(record.requestId, { action: 'accept', content: { answers: { 'Which database?': 'SQLite' } } });
    await vi.waitFor(() =>
      expect(opencode.posts()).toEqual([
        { method: 'POST', url: '/question/que_plugin/reply', body: { answers: [['SQLite']] } },
      ]),
    );

    // A bridge that dies is started again, and reads what is pending anew.
    const state = (globalThis as Record<symbol, { child?: { pid?: number; kill(signal: string): boolean } }>)[
      Symbol.for('askaway.opencode')
    ];
    const firstPid = state?.child?.pid;
    const healthChecks = () => opencode.calls.filter((call) => call.url === '/global/health').length;
    expect(healthChecks()).toBe(1);
    state?.child?.kill('SIGKILL');
    await vi.waitFor(() => expect(healthChecks()).toBe(2), { timeout: 10_000 });
    expect(state?.child?.pid).not.toBe(firstPid);

    const open = questionAsked({ id: 'que_open' });
    opencode.questions.push(open);
    await hooks.event?.({ event: { type: 'question.asked', properties: open } });
    await remote.next((candidate) => candidate.requestId === 'opencode-que_open');
    await dispose();
    await vi.waitFor(() => expect(remote.withdrawn('opencode-que_open')).toEqual({ reason: OPENCODE_CLOSED_REASON }), {
      timeout: 10_000,
    });
    expect(readFileSync(process.env.ASKAWAY_OPENCODE_LOG ?? '', 'utf8')).toContain(
      'que_plugin answered 1 of 1 on the phone',
    );
  });
});

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { asProcessEnv } from '../claude-code/support/claude-project';
import { withConfigServer } from '../../lib/runtime/agents/codex/config-server';
import { expect, test } from './support/fixtures';
import { ASKS_FOR_APPROVAL, callId, cardFor, escalated, modelRead } from './support/scenarios';
import { ROOT } from './support/codex-binary';

const exec = promisify(execFile);

// What a session no daemon client can see gets (R18.15), and the Codex plugin (R18.16), with the real CLI.

test('[R18.15] codex --no-daemon: the hook askaway hook install wrote and trusted puts the approval on the phone; the bridge sees nothing', async ({
  session,
  remote,
  host,
}) => {
  const allowed = 'E2E-hook-yes';
  const denied = 'E2E-hook-no';
  const codex = await session({
    top: ASKS_FOR_APPROVAL,
    // The hook runs inside Codex, with Codex's environment.
    env: { ASKAWAY_URL: host.url, ASKAWAY_TOKEN: host.token },
    conversations: [
      {
        marker: allowed,
        turns: [escalated('true', 'Run true outside the sandbox?'), [{ type: 'text', text: `finished ${allowed}` }]],
      },
      {
        marker: denied,
        turns: [escalated('false', 'Run false outside the sandbox?'), [{ type: 'text', text: `finished ${denied}` }]],
      },
    ],
  });
  const install = await exec('askaway', ['hook', 'install', '--agent', 'codex', '--write', '--timeout', '20s'], {
    env: asProcessEnv(codex.home.env),
  });
  expect(install.stdout).toBe(
    `Askaway's Codex hook written to ${codex.home.codexHome}/hooks.json\nTrusted it in Codex (as /hooks does).\n`,
  );
  const bridge = await codex.bridge();
  const tui = await codex.tui(['--no-daemon']);
  await tui.ready();

  await tui.submit(`${allowed}: run it`);
  await tui.waitFor(/Asking your phone \(Askaway\)/);
  const card = await cardFor(remote, (record) => record.kind === 'approval' && record.toolName === 'Bash');
  expect(card).toMatchObject({
    kind: 'approval',
    input: { subject: 'command', command: 'true', reason: 'Run true outside the sandbox?', cwd: codex.home.workDir },
  });
  await remote.respond(card.requestId, { action: 'accept', content: { choice: 'allow' } });
  expect((await modelRead(codex.model, callId(allowed, 0, 0))).text).toContain('Process exited with code 0');
  await tui.waitFor(new RegExp(`finished ${allowed}`));

  await tui.submit(`${denied}: run it`);
  const second = await cardFor(remote, (record) => record.toolName === 'Bash' && record.requestId !== card.requestId);
  await remote.respond(second.requestId, { action: 'decline', message: 'not now' });
  expect((await modelRead(codex.model, callId(denied, 0, 0))).text).toBe(
    'exec_command failed: CreateProcess { message: "Rejected(\\"not now\\")" }',
  );
  // No daemon ran: the bridge never attached, and carried nothing.
  expect(await codex.home.daemonPid()).toBeUndefined();
  expect(bridge.output()).not.toMatch(/attached to the Codex daemon|→ the phone/);
});

test('[R18.16] the Codex plugin: the real codex CLI installs it from this repository; it carries the hook and the MCP server', async ({
  session,
}) => {
  const codex = await session({ conversations: [] });
  const env = asProcessEnv(codex.home.env);
  expect((await exec('codex', ['plugin', 'marketplace', 'add', ROOT], { env })).stdout).toContain(
    'Added marketplace `askaway`',
  );
  expect((await exec('codex', ['plugin', 'add', 'askaway-codex@askaway'], { env })).stdout).toContain(
    'Added plugin `askaway-codex` from marketplace `askaway`.',
  );
  expect((await exec('codex', ['plugin', 'list'], { env })).stdout).toMatch(
    /askaway-codex@askaway +installed, enabled/,
  );
  // With the plugin in place, hook install trusts its hook instead of writing a second one.
  expect((await exec('askaway', ['hook', 'install', '--agent', 'codex', '--write'], { env })).stdout).toBe(
    "The askaway-codex@askaway plugin carries Askaway's hook: hooks.json left alone.\nTrusted it in Codex (as /hooks does).\n",
  );
  const listed = await withConfigServer(
    codex.home.codexHome,
    { codexBin: 'codex', env: codex.home.env },
    async (server) => ({
      hooks: await server.request('hooks/list', { cwds: [] }),
      servers: await server.request('mcpServerStatus/list', {}),
    }),
  );
  expect(JSON.stringify(listed.hooks)).toMatch(
    /"command":"askaway hook codex".*"source":"plugin","pluginId":"askaway-codex@askaway".*"trustStatus":"trusted"/,
  );
  expect(listed.servers).toMatchObject({
    data: [
      { name: 'askaway', pluginId: 'askaway-codex@askaway', tools: { AskUserQuestion: { name: 'AskUserQuestion' } } },
    ],
  });
});

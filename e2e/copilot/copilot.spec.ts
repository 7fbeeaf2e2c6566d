// The real Copilot CLI (pinned) in tmux through `askaway copilot`, against a scripted model, with a real host
// and a phone (a socket.io client on /remote): each case asserts what Copilot did and what the model read.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test as base, expect } from '@playwright/test';
import { type InteractionRecord } from '../../lib/contracts';
import { connectScriptedRemote, type ScriptedRemote } from '../../lib/runtime/test-support/scripted-remote';
import { startScriptedModel, type ScriptedBlock, type ScriptedModel } from '../opencode/support/model-server';
import { startTestHost, type TestHost } from '../support/host';
import { locateCopilot, type CopilotInstall } from './support/copilot-binary';
import { startCopilotTui, TUI_START_TIMEOUT_MS, type CopilotTui } from './support/tui';

const test = base.extend<{ copilot: CopilotInstall; remote: ScriptedRemote }, { host: TestHost; model: ScriptedModel }>(
  {
    copilot: async ({}, provide, testInfo) => {
      const located = locateCopilot();
      if ('missing' in located) {
        if (located.required) throw new Error(located.missing);
        testInfo.skip(true, located.missing);
        return;
      }
      await provide(located);
    },
    host: [
      async ({}, provide) => {
        const host = await startTestHost();
        await provide(host);
        try {
          host.assertNoSecretsInOutput();
        } finally {
          await host.stop();
        }
      },
      { scope: 'worker' },
    ],
    model: [
      async ({}, provide) => {
        const model = await startScriptedModel();
        await provide(model);
        await model.close();
      },
      { scope: 'worker' },
    ],
    remote: async ({ host }, provide) => {
      const remote = await connectScriptedRemote(host.url, (await host.pairDevice('Scripted phone')).credential);
      await provide(remote);
      remote.close();
    },
  },
);

// One Copilot at a time (about 300 MB each).
test.describe.configure({ mode: 'serial', timeout: TUI_START_TIMEOUT_MS + 60_000 });

const bash = (id: string, command: string): ScriptedBlock[] => [
  { type: 'tool_call', id, name: 'bash', input: { command, description: `Runs ${command}` } },
];
const askUser = (id: string): ScriptedBlock[] => [
  {
    type: 'tool_call',
    id,
    name: 'ask_user',
    input: {
      message: 'Which database?',
      requestedSchema: {
        type: 'object',
        properties: { db: { type: 'string', enum: ['Postgres', 'SQLite'] } },
        required: ['db'],
      },
    },
  },
];

let tui: CopilotTui | undefined;
test.afterEach(async () => {
  // No Copilot outlives its test, failed or not.
  await tui?.stop();
  tui = undefined;
});

async function run(
  { copilot, host, model }: { copilot: CopilotInstall; host: TestHost; model: ScriptedModel },
  marker: string,
  turns: ScriptedBlock[][],
) {
  model.add({ marker, turns });
  tui = await startCopilotTui(copilot, { modelUrl: model.url, askaway: { url: host.url, token: host.token } });
  await tui.submit(`${marker}: set up the service`);
  return tui;
}

const onPhone = (remote: ScriptedRemote, toolCallId: string): Promise<InteractionRecord> =>
  remote.next((record) => record.agent?.name === 'GitHub Copilot' && record.toolUseId === toolCallId, 30_000);

const toolResult = async (model: ScriptedModel, id: string) => {
  await expect.poll(() => model.toolResult(id)?.content, { timeout: 30_000 }).toBeDefined();
  return model.toolResult(id)?.content ?? '';
};

test("[R18.30][R18.31][R18.36] the phone allows a command: the TUI's dialog closes and the command runs", async ({
  copilot,
  host,
  model,
  remote,
}) => {
  const cli = await run({ copilot, host, model }, 'CP-ALLOW', [bash('call_allow', 'touch from-phone.txt')]);
  await cli.waitFor(/Do you want to run this command\?/);
  const record = await onPhone(remote, 'call_allow');
  expect(record).toMatchObject({
    kind: 'approval',
    input: { subject: 'command', command: 'touch from-phone.txt', cwd: cli.project },
  });
  await remote.respond(record.requestId, { action: 'accept', content: { choice: 'once' } });
  expect(await toolResult(model, 'call_allow')).toContain('exit code 0');
  expect(existsSync(path.join(cli.project, 'from-phone.txt'))).toBe(true);
  await expect.poll(() => cli.screen()).not.toMatch(/Do you want to run this command\?/);
});

test("[R18.33][R18.36] the phone fills in ask_user's form: the model reads its values", async ({
  copilot,
  host,
  model,
  remote,
}) => {
  const cli = await run({ copilot, host, model }, 'CP-FORM', [askUser('call_form')]);
  await cli.waitFor(/Which database\?/);
  const record = await onPhone(remote, 'call_form');
  expect(record).toMatchObject({ kind: 'form', toolName: 'ask_user', input: { message: 'Which database?' } });
  await remote.respond(record.requestId, { action: 'accept', content: { values: { db: 'SQLite' } } });
  expect(await toolResult(model, 'call_form')).toBe('User responded: SQLite');
});

test('[R18.34][R18.36] answered in the terminal first: the card leaves as answered there, with the choice made there', async ({
  copilot,
  host,
  model,
  remote,
}) => {
  const cli = await run({ copilot, host, model }, 'CP-TERM', [bash('call_term', 'touch from-terminal.txt')]);
  await cli.waitFor(/Do you want to run this command\?/);
  const record = await onPhone(remote, 'call_term');
  await cli.keys(['Enter']);
  await expect
    .poll(() => remote.withdrawn(record.requestId)?.reason, { timeout: 15_000 })
    .toBe('Answered in the terminal');
  expect(remote.withdrawn(record.requestId)?.terminalAnswer).toEqual({
    response: { action: 'accept', content: { choice: 'once' } },
  });
  expect(await toolResult(model, 'call_term')).toContain('exit code 0');
});

test("[R18.32][R18.36] a denial with a reason: the model reads it as the user's feedback", async ({
  copilot,
  host,
  model,
  remote,
}) => {
  const cli = await run({ copilot, host, model }, 'CP-DENY', [bash('call_deny', 'rm -rf build')]);
  await cli.waitFor(/Do you want to run this command\?/);
  const record = await onPhone(remote, 'call_deny');
  expect(record.context?.declineNote).toContain('Operation cancelled by user');
  await remote.respond(record.requestId, { action: 'decline', message: 'keep the build folder' });
  expect(await toolResult(model, 'call_deny')).toBe(
    'The user rejected this tool call. User feedback: keep the build folder',
  );
});

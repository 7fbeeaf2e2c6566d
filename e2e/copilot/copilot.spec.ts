// The real Copilot CLI (pinned) in tmux through `askaway copilot`, against a scripted model, with a real host
// and a phone (a socket.io client on /remote): each case asserts what Copilot did and what the model read.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type ScriptedBlock, type ScriptedModel } from '../opencode/support/model-server';
import { expect, test, type CopilotLab } from './support/fixtures';
import { askUser, bash, onPhone, RUN_COMMAND_DIALOG, toolResult } from './support/scenarios';
import { TUI_START_TIMEOUT_MS } from './support/tui';
import { forAgentWork } from '../support/agent-wait';

// One Copilot at a time (about 300 MB each).
test.describe.configure({ mode: 'serial', timeout: TUI_START_TIMEOUT_MS + 60_000 });

async function run(
  { lab, model }: { lab: CopilotLab; model: ScriptedModel },
  marker: string,
  turns: ScriptedBlock[][],
) {
  model.add({ marker, turns });
  const tui = await lab.tui();
  await tui.submit(`${marker}: set up the service`);
  return tui;
}

test("[R18.30][R18.31][R18.36] the phone allows a command: the TUI's dialog closes and the command runs", async ({
  lab,
  model,
  remote,
}) => {
  const cli = await run({ lab, model }, 'CP-ALLOW', [bash('call_allow', 'touch from-phone.txt')]);
  await cli.waitFor(RUN_COMMAND_DIALOG);
  const record = await onPhone(remote, 'call_allow');
  expect(record).toMatchObject({
    kind: 'approval',
    input: { subject: 'command', command: 'touch from-phone.txt', cwd: cli.project },
  });
  await remote.respond(record.requestId, { action: 'accept', content: { choice: 'once' } });
  expect(await toolResult(model, 'call_allow')).toContain('exit code 0');
  expect(existsSync(path.join(cli.project, 'from-phone.txt'))).toBe(true);
  await expect.poll(() => cli.screen()).not.toMatch(RUN_COMMAND_DIALOG);
});

test("[R18.33][R18.36] the phone fills in ask_user's form: the model reads its values", async ({
  lab,
  model,
  remote,
}) => {
  const cli = await run({ lab, model }, 'CP-FORM', [askUser('call_form')]);
  await cli.waitFor(/Which database\?/);
  const record = await onPhone(remote, 'call_form');
  expect(record).toMatchObject({ kind: 'form', toolName: 'ask_user', input: { message: 'Which database?' } });
  await remote.respond(record.requestId, { action: 'accept', content: { values: { db: 'SQLite' } } });
  expect(await toolResult(model, 'call_form')).toBe('User responded: SQLite');
});

test('[R18.34][R18.36] answered in the terminal first: the card leaves as answered there, with the choice made there', async ({
  lab,
  model,
  remote,
}) => {
  const cli = await run({ lab, model }, 'CP-TERM', [bash('call_term', 'touch from-terminal.txt')]);
  await cli.waitFor(RUN_COMMAND_DIALOG);
  const record = await onPhone(remote, 'call_term');
  await cli.keys(['Enter']);
  await expect
    .poll(() => remote.withdrawn(record.requestId)?.reason, { timeout: forAgentWork() })
    .toBe('Answered in the terminal');
  expect(remote.withdrawn(record.requestId)?.terminalAnswer).toEqual({
    response: { action: 'accept', content: { choice: 'once' } },
  });
  expect(await toolResult(model, 'call_term')).toContain('exit code 0');
});

test("[R18.32][R18.36] a denial with a reason: the model reads it as the user's feedback", async ({
  lab,
  model,
  remote,
}) => {
  const cli = await run({ lab, model }, 'CP-DENY', [bash('call_deny', 'rm -rf build')]);
  await cli.waitFor(RUN_COMMAND_DIALOG);
  const record = await onPhone(remote, 'call_deny');
  expect(record.context?.declineNote).toContain('Operation cancelled by user');
  await remote.respond(record.requestId, { action: 'decline', message: 'keep the build folder' });
  expect(await toolResult(model, 'call_deny')).toBe(
    'The user rejected this tool call. User feedback: keep the build folder',
  );
});

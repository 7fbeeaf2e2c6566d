import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PERMISSION_DENIED } from '../../lib/protocol/response-to-broker-result';
import { buttons, openNotificationPhone, type NotificationPhone } from '../support/notification-press';
import { forAgentWork } from '../support/agent-wait';
import { expect, test } from './support/fixtures';
import {
  passFirstRunDialogs,
  startInteractive,
  submitPrompt,
  waitForDialog,
  waitForScreen,
} from './support/interactive';
import { type ScriptedTurn } from './support/model-server';
import { askUserQuestion, claudeCodeSays, DB_QUESTION, dbQuestion, finish, runSdk } from './support/scenarios';

// The real Claude Code asks; the phone is in a pocket, and its notification's button is pressed on the desktop's
// notification service (../support/notification-press.ts): the app's service worker sends the answer to the
// real host, the hook hands it to Claude Code, and the scripted model reads what Claude Code made of it.

let phone: NotificationPhone;

// One phone for the file, so its tests run one after another in one worker.
test.describe.configure({ mode: 'default' });
// The phone's push service is the suite's recording server on loopback: a push service the host refuses unless
// its owner allows private ones (R12.20), so this file's host runs as such an owner's does.
test.use({ hostArgs: ['--allow-private-push'] });

test.beforeAll(async ({ host }) => {
  phone = await openNotificationPhone(host, 'Pocket phone');
  host.rememberSecret(phone.device.credential);
});

test.afterAll(async ({ host }) => {
  await phone?.close();
  // The host is the worker's: the phone's subscription must not outlive the phone.
  if (phone) {
    const revoked = await fetch(`${host.url}/api/admin/devices/${phone.device.deviceId}/revoke`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${host.adminToken}` },
    });
    expect(revoked.status).toBe(200);
  }
});

/** A Bash call the model makes in the project: a file only a run of the command writes. */
function bashTurn(id: string, command: string): ScriptedTurn {
  return () => [{ type: 'tool_use', id, name: 'Bash', input: { command, description: 'Write the marker file' } }];
}

test('[R14.8][R14.10] Allow on the notification of a Bash permission prompt: the command runs and the model reads its output', async ({
  claude,
  workspace,
}) => {
  const marker = 'E2E-notify-allow';
  const command = 'echo allowed-from-the-pocket | tee pocket.txt';
  const ws = await workspace([{ marker, turns: [bashTurn('toolu_notify_allow', command)] }], { allTools: true });
  // The SDK host keeps quiet long enough for the phone to be the one that answers.
  const session = runSdk(claude, ws, `${marker}: write the marker`, { answerAfterMs: 25_000 });

  // Claude Code starts, the model calls the tool, the hook reaches the host: the agent's own work.
  await phone.relayNextPush(forAgentWork());
  const shown = await phone.shownFor('Allow Bash?', 'pocket.txt');
  expect(buttons(shown)).toEqual(['Allow', 'Deny']);
  phone.press(shown, '0');
  expect((await phone.receiptOf(shown)).body).toBe('Allowed · received by Claude Code');

  const result = await finish(session, ws, 'toolu_notify_allow');
  expect(result).toMatchObject({ isError: false, content: 'allowed-from-the-pocket' });
  expect(await readFile(path.join(ws.project.dir, 'pocket.txt'), 'utf8')).toBe('allowed-from-the-pocket\n');
  expect(session.canUseTool).toHaveLength(1);
  expect(session.canUseTool[0]).toMatchObject({ toolName: 'Bash', cancelled: true, answered: false });
  await phone.relayNextPush();
});

test('[R14.8] Deny on the notification: the command does not run and the model reads the denial', async ({
  claude,
  workspace,
}) => {
  const marker = 'E2E-notify-deny';
  const ws = await workspace([{ marker, turns: [bashTurn('toolu_notify_deny', 'echo denied > denied.txt')] }], {
    allTools: true,
  });
  const session = runSdk(claude, ws, `${marker}: write the marker`, { answerAfterMs: 25_000 });

  // Claude Code starts, the model calls the tool, the hook reaches the host: the agent's own work.
  await phone.relayNextPush(forAgentWork());
  const shown = await phone.shownFor('Allow Bash?', 'denied.txt');
  phone.press(shown, '1');
  expect((await phone.receiptOf(shown)).body).toBe('Denied · received by Claude Code');

  const result = await finish(session, ws, 'toolu_notify_deny');
  expect(result).toMatchObject({ isError: true, content: PERMISSION_DENIED });
  expect(existsSync(path.join(ws.project.dir, 'denied.txt'))).toBe(false);
  await phone.relayNextPush();
});

test("[R14.9] a single-select AskUserQuestion's option button: the model reads exactly that option", async ({
  claude,
  workspace,
}) => {
  const marker = 'E2E-notify-ask';
  const ws = await workspace([{ marker, turns: [askUserQuestion('toolu_notify_ask', { questions: [dbQuestion] })] }]);
  const session = runSdk(claude, ws, `${marker}: set up the service`, { answerAfterMs: 25_000 });

  // Claude Code starts, the model calls the tool, the hook reaches the host: the agent's own work.
  await phone.relayNextPush(forAgentWork());
  const shown = await phone.shownFor('Database', DB_QUESTION);
  expect(buttons(shown)).toEqual(['Postgres', 'SQLite']);
  phone.press(shown, '1');
  expect((await phone.receiptOf(shown)).body).toContain('Answered “SQLite”');

  const result = await finish(session, ws, 'toolu_notify_ask');
  expect(result.content).toBe(claudeCodeSays.answered(`"${DB_QUESTION}"="SQLite"`));
  await phone.relayNextPush();
});

test('[R14.8][R11.10] interactive UI: Allow on the notification while the terminal asks too closes its dialog, and the command runs', async ({
  claude,
  workspace,
}) => {
  const marker = 'E2E-notify-tui';
  const command = 'echo allowed-in-the-tui | tee tui.txt';
  const ws = await workspace([{ marker, turns: [bashTurn('toolu_notify_tui', command)] }], { allTools: true });
  const tmux = await startInteractive(claude, ws, ['--permission-mode', 'default']);
  await passFirstRunDialogs(tmux);
  await submitPrompt(tmux, `${marker}: write the marker`);

  // Claude Code starts, the model calls the tool, the hook reaches the host: the agent's own work.
  await phone.relayNextPush(forAgentWork());
  const shown = await phone.shownFor('Allow Bash?', 'tui.txt');
  // Claude Code's own prompt is up meanwhile: the notification answers it.
  await waitForDialog(tmux, /Do you want to proceed\?/);
  phone.press(shown, '0');
  expect((await phone.receiptOf(shown)).body).toBe('Allowed · received by Claude Code');

  const screen = await waitForScreen(tmux, /● done/);
  expect(screen).not.toMatch(/Do you want to proceed\?/);
  await expect
    .poll(() => ws.model.toolResult('toolu_notify_tui'), { timeout: forAgentWork() })
    .toMatchObject({ isError: false, content: 'allowed-in-the-tui' });
  expect(await readFile(path.join(ws.project.dir, 'tui.txt'), 'utf8')).toBe('allowed-in-the-tui\n');
  await phone.relayNextPush();
});

import { existsSync } from 'node:fs';
import path from 'node:path';
import { joinMachine } from '../support/machines';
import { PHONE_SCREEN, reviewShots } from '../support/screenshots';
import { expect, test } from './support/fixtures';
import { bash, onPhone, RUN_COMMAND_DIALOG, toolResult } from './support/scenarios';
import { TUI_START_TIMEOUT_MS } from './support/tui';

// Copilot on another computer (R17): the machine joined the hub with `askaway join`, and `askaway copilot`
// there reaches the hub through its hub.json alone (no ASKAWAY_URL or token). The real PWA shows the card.

test.describe.configure({ mode: 'serial', timeout: TUI_START_TIMEOUT_MS + 60_000 });

test("[R18.30][R18.31][R17.3][R18.1] on a joined machine: the PWA shows Copilot's command with the machine and the agent, and Allow runs it in the TUI", async ({
  lab,
  model,
  host,
  remote,
  phone,
}, testInfo) => {
  const machine = await joinMachine(host, 'copilot-laptop');
  // A second agent on record, so that the phone names each card's agent (with one agent it names none).
  const other = await machine.runtime.approval({
    subject: 'command',
    command: 'npm test',
    cwd: '/home/ada/src/shop',
    choices: [
      { id: 'accept', label: 'Allow once', effect: 'allow' },
      { id: 'decline', label: 'Deny', effect: 'deny' },
    ],
  });
  try {
    const marker = 'CP-JOINED';
    model.add({
      marker,
      turns: [bash('call_joined', 'touch from-the-pwa.txt'), [{ type: 'text', text: `finished ${marker}` }]],
    });
    const tui = await lab.tui({ askaway: { dataDir: machine.dataDir } });
    await tui.submit(`${marker}: set up the service`);
    await tui.waitFor(RUN_COMMAND_DIALOG);
    const record = await onPhone(remote, 'call_joined');
    expect(record.machine).toEqual({ id: machine.id, name: 'copilot-laptop' });

    const card = await phone.openCard(record.requestId);
    await expect(card.root.getByTestId('machine-chip')).toHaveText('Machine: copilot-laptop');
    await expect(card.root.getByTestId('agent-chip')).toHaveAttribute('data-agent', 'copilot');
    await expect(card.root.getByTestId('agent-chip')).toContainText('GitHub Copilot');
    await expect(card.root).toContainText('Also open in the terminal on copilot-laptop');
    const page = phone.page;
    await expect(page.getByTestId('card.approval-command')).toHaveText('touch from-the-pwa.txt');
    await expect(page.getByTestId('card.approval-cwd')).toContainText(tui.project);
    await expect(page.getByText('GitHub Copilot says')).toBeVisible();
    await expect(page.getByTestId('card.approval-reason')).toHaveText('Runs touch from-the-pwa.txt');
    await reviewShots(page, 'copilot-command', testInfo.project.name, PHONE_SCREEN);

    await expect(page.getByTestId('card.approve')).toHaveText('Allow once');
    await page.getByTestId('card.approve').click();
    await expect(page.getByTestId('card.receipt-applied')).toContainText('Received by the agent');
    expect(await toolResult(model, 'call_joined')).toContain('exit code 0');
    expect(existsSync(path.join(tui.project, 'from-the-pwa.txt'))).toBe(true);
    await tui.waitFor(new RegExp(`finished ${marker}`));
    expect(await tui.screen()).not.toMatch(RUN_COMMAND_DIALOG);
  } finally {
    await machine.runtime.withdraw(other);
    await machine.remove();
  }
});

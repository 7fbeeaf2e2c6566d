import { type InteractionResolution } from '../lib/contracts';
import { expect, test } from './support/fixtures';
import { joinMachine, RuntimeProcess, type JoinedMachine } from './support/machines';
import { ScriptedRuntime } from './support/scripted-runtime';
import { singleQuestion, STORAGE_QUESTION } from './support/payloads';

// One hub, several machines, one phone (R17): real `askaway invite` / `askaway join` processes, a
// scripted runtime per machine holding that machine's credential, and the phone in Chromium.

const HUB_NAME = 'studio';
test.use({ hostArgs: ['--name', HUB_NAME] });

const SAME_SESSION = 'session-1';
const SAME_REQUEST = 'req-1';

/** A machine chip's text: the name, after "Machine:" for screen readers. */
const chip = (name: string) => `Machine: ${name}`;

function answerOf(resolution: InteractionResolution | undefined): string | undefined {
  const response = resolution?.response;
  return response?.action === 'accept' ? response.content?.answers?.[STORAGE_QUESTION] : undefined;
}

test.describe('machines', () => {
  const machines: JoinedMachine[] = [];
  const processes: RuntimeProcess[] = [];
  test.afterEach(async () => {
    for (const child of processes.splice(0)) await child.kill();
    for (const machine of machines.splice(0)) await machine.remove();
  });

  test('[R17.3][R17.4] three machines in one inbox with their chips; each answer reaches exactly the agent that asked, with the same session and request ids', async ({
    app,
    host,
  }) => {
    test.setTimeout(60_000);
    const { page } = app;
    // A hub alone: no machine level, no chips.
    await expect(page.getByTestId('inbox.empty')).toBeVisible();
    await expect(page.getByTestId('inbox.machine')).toHaveCount(0);

    for (const name of ['laptop', 'desktop', 'ci-runner']) machines.push(await joinMachine(host, name));
    const answers = new Map([
      ['laptop', 'Redis (Recommended)'],
      ['desktop', 'SQLite'],
      ['ci-runner', 'Memcached'],
    ]);
    // Nothing waits yet: the empty inbox says which machines are there to ask.
    await expect(page.getByTestId('inbox.machines-row')).toHaveCount(4);

    for (const machine of machines)
      await machine.runtime.ask(singleQuestion, {
        requestId: SAME_REQUEST,
        sessionId: SAME_SESSION,
        context: { cwd: `/home/ada/src/${machine.name}-shop` },
      });

    const sections = page.getByTestId('inbox.machine');
    await expect(sections).toHaveCount(3);
    await expect(app.inbox.items).toHaveCount(3);
    for (const machine of machines) {
      const section = page.locator(`[data-testid="inbox.machine"][data-machine-id="${machine.id}"]`);
      await expect(section.getByRole('heading', { level: 2 })).toHaveText(machine.name);
      await expect(section.getByTestId('machine-state')).toHaveText('1 agent connected');
      const item = section.getByTestId('inbox.item');
      await expect(item).toHaveCount(1);
      await expect(item).toHaveAttribute('data-request-id', `${machine.id}:${SAME_REQUEST}`);
      await expect(item.getByTestId('machine-chip')).toHaveText(chip(machine.name));
      await expect(item).toHaveAccessibleName(new RegExp(`Machine: ${machine.name}`));
    }

    // Answer each on the phone, a different option each time, in inbox order.
    for (const machine of machines) {
      const card = await app.openCard(`${machine.id}:${SAME_REQUEST}`);
      await expect(card.root.getByTestId('machine-chip')).toHaveText(chip(machine.name));
      await card.choose(0, answers.get(machine.name) ?? '');
      await card.submit();
      await expect(card.page.getByTestId('card.receipt-applied')).toContainText('Received by the agent');
      await expect(card.page.getByTestId('card.receipt-applied').getByTestId('machine-chip')).toHaveText(
        chip(machine.name),
      );
    }
    for (const machine of machines) {
      const got = machine.runtime.resolutionsFor(SAME_REQUEST);
      expect(got, machine.name).toHaveLength(1);
      expect(answerOf(got[0]), machine.name).toBe(answers.get(machine.name));
    }

    // History by machine: chips on every entry, and the filter keeps one machine's.
    await app.goto('/history');
    const entries = page.getByTestId('history.item');
    await expect(entries).toHaveCount(3);
    await expect(entries.getByTestId('machine-chip')).toHaveText(['ci-runner', 'desktop', 'laptop'].map(chip));
    const filter = page.getByTestId('machine-filter');
    await filter.getByRole('radio', { name: 'desktop' }).check();
    await expect(entries).toHaveCount(1);
    await expect(entries.getByTestId('machine-chip')).toHaveText(chip('desktop'));

    // The choice is remembered on this device, for Sessions too.
    await app.goto('/sessions');
    await expect(page.getByTestId('machine-filter').getByRole('radio', { name: 'desktop' })).toBeChecked();
    const sessions = page.getByTestId('sessions.session');
    await expect(sessions).toHaveCount(1);
    await expect(sessions.getByTestId('machine-chip')).toHaveText(chip('desktop'));
    await page.getByTestId('machine-filter').getByRole('radio', { name: 'All machines' }).check();
    // The same session id on three machines is three sessions.
    await expect(sessions).toHaveCount(3);
    await expect(page.locator(`[data-testid="sessions.session"][data-session-id="${SAME_SESSION}"]`)).toHaveCount(3);
  });

  test('[R17.2][R17.5] Settings → Machines lists the hub and the joined machines; revoking one from the phone drops it at once', async ({
    app,
    host,
    runtime,
  }) => {
    const { page } = app;
    await app.goto('/settings');
    const list = page.getByTestId('settings.machines');
    // Only the hub: how to add a machine.
    await expect(list.getByTestId('settings.machine-row')).toHaveCount(1);
    await expect(list.getByTestId('settings.machine-row')).toHaveAttribute('data-hub', 'true');
    await expect(list.getByTestId('settings.machine-row')).toContainText(HUB_NAME);
    await expect(list.getByTestId('settings.machines-empty')).toBeVisible();
    await expect(list).toContainText('askaway invite');
    await expect(list).toContainText('askaway join');
    // The hub's own agent (the runtime fixture, agent token) counts for the hub.
    await expect(list.getByTestId('settings.machine-row').getByTestId('machine-state')).toHaveText('1 agent connected');
    await expect(list.getByTestId('settings.machine-revoke')).toHaveCount(0);

    const laptop = await joinMachine(host, 'laptop');
    const desktop = await joinMachine(host, 'desktop');
    machines.push(laptop, desktop);
    const rows = list.getByTestId('settings.machine-row');
    await expect(rows).toHaveCount(3);
    await expect(rows.getByTestId('machine-chip')).toHaveText([HUB_NAME, 'laptop', 'desktop'].map(chip));
    await expect(list.getByTestId('settings.machines-empty')).toHaveCount(0);
    const laptopRow = list.locator(`[data-testid="settings.machine-row"][data-machine-id="${laptop.id}"]`);
    await expect(laptopRow).toContainText('Joined');
    await expect(laptopRow.getByTestId('machine-state')).toHaveText('1 agent connected');

    const asked = await laptop.runtime.ask(singleQuestion, { sessionId: SAME_SESSION });
    const key = `${laptop.id}:${asked}`;
    await app.waitForInteraction(key);

    // Revoke, with a confirmation first; Cancel changes nothing.
    await laptopRow.getByRole('button', { name: 'Revoke laptop' }).click();
    const dialog = page.getByTestId('settings.machine-revoke-dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Revoke laptop?');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(rows).toHaveCount(3);
    await laptopRow.getByRole('button', { name: 'Revoke laptop' }).click();
    await page.getByTestId('settings.machine-revoke-dialog-confirm').click();

    await expect(rows).toHaveCount(2);
    await expect(rows.getByTestId('machine-chip')).toHaveText([HUB_NAME, 'desktop'].map(chip));
    // Its question left the inbox (withdrawn), and its agent was dropped and is refused from now on.
    await app.waitForInteraction(key, 'withdrawn');
    await expect.poll(() => laptop.runtime.isConnected()).toBe(false);
    const again = new ScriptedRuntime(host.url, laptop.credential);
    try {
      await expect(again.connected()).rejects.toThrow('("laptop") was removed from');
    } finally {
      again.close();
    }
    await app.goto('/history');
    const entry = page.locator(`[data-testid="history.item"][data-request-id="${key}"]`);
    await expect(entry.getByTestId('machine-chip')).toHaveText(chip('laptop'));
    await expect(entry.getByTestId('history.summary')).toContainText('Withdrawn');
    // Its history stays filterable though the hub no longer lists it.
    await expect(page.getByTestId('machine-filter').getByRole('radio', { name: 'laptop' })).toBeVisible();
    await expect(runtime.resolutions).toEqual([]);
  });

  test('[R17.6] SIGKILL a machine runtime while its question waits: answered on the phone meanwhile, delivered when the machine is back', async ({
    app,
    host,
  }) => {
    test.setTimeout(60_000);
    const { page } = app;
    const laptop = await joinMachine(host, 'laptop');
    machines.push(laptop);
    // Its only agent is the process below.
    laptop.runtime.close();
    const question = {
      requestId: 'tool-use-7',
      sessionId: SAME_SESSION,
      input: singleQuestion,
      context: { cwd: '/home/ada/src/shop' },
    };
    const key = `${laptop.id}:${question.requestId}`;
    const first = new RuntimeProcess(host.url, laptop.credential, question);
    processes.push(first);
    await first.announced;
    await app.waitForInteraction(key);
    const section = page.locator(`[data-testid="inbox.machine"][data-machine-id="${laptop.id}"]`);
    await expect(section.getByTestId('machine-state')).toHaveText('1 agent connected');
    await expect(app.inbox.item(key).getByTestId('inbox.waiting-for-machine')).toHaveCount(0);

    await first.kill();
    // Still waiting, still answerable, and marked as waiting for the machine.
    await expect(section).toHaveAttribute('data-presence', 'away');
    await expect(section.getByTestId('machine-state')).toContainText('No agent connected · last seen');
    await expect(app.inbox.item(key).getByTestId('inbox.waiting-for-machine')).toHaveText(
      'Waiting for laptop to come back',
    );
    const card = await app.openCard(key);
    await expect(page.getByTestId('card.waiting-for-machine')).toContainText('Waiting for laptop to come back');
    await card.choose(0, 'SQLite');
    await card.submit();
    // The hub holds the answer; the agent has not got it yet.
    await expect(card.receipt).toHaveAttribute('data-state', 'waiting-for-machine');
    await expect(page.getByTestId('card.receipt-status')).toContainText('Answered · delivered');
    await expect(page.getByTestId('card.receipt-waiting')).toContainText(
      'Kept on the hub · delivered when laptop is back',
    );
    await expect(page.getByTestId('card.receipt-applied')).toHaveCount(0);

    // The machine comes back: its runtime re-announces the same request and gets the answer.
    const second = new RuntimeProcess(host.url, laptop.credential, question);
    processes.push(second);
    await expect.poll(() => second.resolutions.length, { timeout: 15_000 }).toBeGreaterThan(0);
    await expect(card.receipt).toHaveAttribute('data-state', 'applied');
    await expect(page.getByTestId('card.receipt-applied')).toContainText('Received by the agent');
    await expect(page.getByTestId('card.receipt-waiting')).toHaveCount(0);
    const notice = second.resolutions[0] as { requestId: string; resolution: InteractionResolution };
    expect(notice.requestId).toBe(question.requestId);
    expect(answerOf(notice.resolution)).toBe('SQLite');
    expect(first.resolutions).toEqual([]);
  });
});

import { joinMachine } from '../support/machines';
import { expect, test } from './support/fixtures';
import { askQuestions, DB_QUESTION, dbQuestion, onPhone, openCodeSays } from './support/scenarios';
import { SERVE_START_TIMEOUT_MS, startServe } from './support/serve';
import { forAgentWork } from '../support/agent-wait';

// OpenCode on a joined machine (R17): no ASKAWAY_URL or token, only the hub.json `askaway join` wrote, so the
// bridge asks through the hub with the machine's credential; the phone answers on the hub. Headless this time:
// `opencode serve` with a password, the plugin installed per project.
test('[R18.20][R17.3] a question of OpenCode on a joined machine, answered on the hub from the phone', async ({
  opencode,
  host,
  labs,
  model,
  remote,
  phone,
}) => {
  // It starts an OpenCode of its own (the shared TUI's start is not charged to a test, this one's is): 56 s of a
  // 60 s timeout went on a loaded CI machine, 45 s of them before the question could be asked.
  test.setTimeout(60_000 + SERVE_START_TIMEOUT_MS);
  const machine = await joinMachine(host, 'laptop');
  const marker = 'OC-joined';
  model.add({ marker, turns: [askQuestions('call_joined', [dbQuestion])] });
  const lab = await labs.make({ askaway: { dataDir: machine.dataDir }, perProject: true });
  const serve = await startServe(opencode.binary, lab, 's3cret-e2e');
  try {
    const session = (await serve.api('POST', '/session', {})).body as { id: string };
    expect(
      (
        await serve.api('POST', `/session/${session.id}/prompt_async`, {
          parts: [{ type: 'text', text: `${marker}: go` }],
        })
      ).status,
    ).toBeLessThan(300);
    const record = await onPhone(remote, 'call_joined');
    expect(record).toMatchObject({ machine: { id: machine.id, name: 'laptop' }, sessionId: session.id });

    const card = await phone.openCard(record.requestId);
    await expect(card.root.getByTestId('machine-chip')).toHaveText('Machine: laptop');
    await card.choose(0, 'SQLite');
    await card.submit();
    await expect(phone.page.getByTestId('card.receipt-applied')).toContainText('Received by the agent');
    await expect
      .poll(() => model.toolResult('call_joined')?.content, { timeout: forAgentWork() })
      .toBe(openCodeSays.answered(`"${DB_QUESTION}"="SQLite"`));
  } finally {
    await serve.stop();
    await machine.remove();
  }
});

import { joinMachine, type JoinedMachine } from '../support/machines';
import { expect, test } from './support/fixtures';
import { ask, callId, cardFor, colorQuestion, modelRead } from './support/scenarios';

// Codex on another computer (R17): the machine joined the hub with `askaway join`, and `askaway codex`
// there reaches the hub with the machine's credential from hub.json, no environment variables.

test('[R18.10][R17.3] a Codex question on a joined machine, answered from the phone on the hub', async ({
  session,
  host,
  phone,
  remote,
}) => {
  let machine: JoinedMachine | undefined;
  let bridge: { stop(): Promise<void> } | undefined;
  try {
    machine = await joinMachine(host, 'codex-laptop');
    const marker = 'E2E-joined';
    const codex = await session({
      conversations: [{ marker, turns: [ask([colorQuestion]), [{ type: 'text', text: `finished ${marker}` }]] }],
    });
    bridge = await codex.bridge({ ASKAWAY_DATA_DIR: machine.dataDir, ASKAWAY_URL: '', ASKAWAY_TOKEN: '' });
    const tui = await codex.tui();
    await tui.ready({ plan: true });
    await tui.submit(`${marker}: pick a color`);
    const record = await cardFor(remote, (candidate) => candidate.toolUseId === callId(marker, 0, 1));
    expect(record.machine).toEqual({ id: machine.id, name: 'codex-laptop' });

    const card = await phone.openCard(record.requestId);
    await expect(card.root).toContainText('codex-laptop');
    await card.choose(0, 'Blue');
    await card.submit();
    await expect(card.receipt).toBeVisible();
    expect(JSON.parse((await modelRead(codex.model, callId(marker, 0, 1))).text)).toEqual({
      answers: { color: { answers: ['Blue'] } },
    });
    await tui.waitFor(new RegExp(`finished ${marker}`));
  } finally {
    // The bridge writes into the machine's data dir until it exits: stopped first, or the dir is removed under it.
    await bridge?.stop();
    await machine?.remove();
  }
});

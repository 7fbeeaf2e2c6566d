import { existsSync } from 'node:fs';
import path from 'node:path';
import { freeLoopbackPort } from '../../lib/runtime/agents/copilot/install';
import { expect, test } from './support/fixtures';
import { bash, RUN_COMMAND_DIALOG, toolResult } from './support/scenarios';
import { TUI_START_TIMEOUT_MS } from './support/tui';

test.describe.configure({ mode: 'serial', timeout: TUI_START_TIMEOUT_MS + 60_000 });

test("[R18.30] the hub unreachable: Copilot's own dialog asks as ever and is answered in the terminal", async ({
  lab,
  model,
}) => {
  const marker = 'CP-NO-HUB';
  model.add({
    marker,
    turns: [bash('call_no_hub', 'touch without-hub.txt'), [{ type: 'text', text: `finished ${marker}` }]],
  });
  // Nothing listens there.
  const tui = await lab.tui({ askaway: { url: `http://127.0.0.1:${await freeLoopbackPort()}`, token: 'no-hub-here' } });
  await tui.submit(`${marker}: set up the service`);
  await tui.waitFor(RUN_COMMAND_DIALOG);
  await tui.keys(['Enter']);
  expect(await toolResult(model, 'call_no_hub')).toContain('exit code 0');
  // The card that waited for a hub to show on is given up, as answered in the terminal.
  await expect.poll(() => tui.log()).toMatch(/withdrawn from the phone: Answered in the terminal/);
  expect(existsSync(path.join(tui.project, 'without-hub.txt'))).toBe(true);
  await tui.waitFor(new RegExp(`finished ${marker}`));
});

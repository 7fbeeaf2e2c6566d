import { existsSync } from 'node:fs';
import path from 'node:path';
import { COPILOT_CLOSED_REASON } from '../../lib/runtime/agents/copilot/terminal-answer';
import { expect, test } from './support/fixtures';
import { bash, onPhone, RUN_COMMAND_DIALOG, toolResult } from './support/scenarios';
import { TUI_START_TIMEOUT_MS } from './support/tui';

// Copilot dies while its command card is on the phone, and the person starts it again on the same session.
// Copilot 1.0.102 does not ask again: it marks the call interrupted (the model reads that on its next turn)
// and waits for the next prompt, whose card reaches the phone from the same session.

test.describe.configure({ mode: 'serial', timeout: TUI_START_TIMEOUT_MS * 2 + 60_000 });

// Killed, and stopped with SIGTERM (which `askaway copilot` passes on; Copilot 1.0.102 then exits 0); each
// started again another way.
const RESTARTS = [
  { end: 'kill', ended: 'killed', exitCode: 137, how: '--continue', args: () => ['--continue'] },
  {
    end: 'terminate',
    ended: 'terminated',
    exitCode: 0,
    how: '--resume <session>',
    args: (sessionId: string) => ['--resume', sessionId],
  },
] as const;

for (const [index, { end, ended, exitCode, how, args }] of RESTARTS.entries()) {
  test(`[R18.41][R18.35][R18.30] Copilot ${ended} with a card open: the card leaves, a late answer is refused; after \`${how}\` the next prompt is answered on the phone`, async ({
    lab,
    model,
    remote,
    phone,
  }) => {
    const marker = `CP-RESTART-${index}`;
    const [lostCall, nextCall] = [`call_lost_${index}`, `call_after_${index}`];
    model.add({
      marker,
      turns: [
        bash(lostCall, 'touch before-restart.txt'),
        bash(nextCall, 'touch after-restart.txt'),
        [{ type: 'text', text: `finished ${marker}` }],
      ],
    });
    const at = await lab.home();
    const first = await lab.tui({ at });
    await first.submit(`${marker}: set up the service`);
    await first.waitFor(RUN_COMMAND_DIALOG);
    const lost = await onPhone(remote, lostCall);
    const card = await phone.openCard(lost.requestId);

    await first.end(end);
    await expect.poll(() => remote.withdrawn(lost.requestId)).toEqual({ reason: COPILOT_CLOSED_REASON });
    await expect(card.receipt).toHaveAttribute('data-state', 'withdrawn');
    await expect(phone.page.getByTestId('card.receipt-status')).toContainText(COPILOT_CLOSED_REASON);
    // A phone that answers anyway (one that was offline, say) is refused.
    expect(await remote.respond(lost.requestId, { action: 'accept', content: { choice: 'once' } })).toMatchObject({
      ok: false,
      error: { code: 'withdrawn' },
    });
    // `askaway copilot` exits as Copilot did.
    expect(await first.exited()).toBe(exitCode);
    await first.stop();

    const second = await lab.tui({ at, args: args(lost.sessionId) });
    await second.waitFor(/unresolved operations\s+were not automatically retried/);
    // Nothing asked again: no model call, no card.
    expect(model.calls(marker)).toBe(1);
    expect(remote.pending().filter((record) => record.sessionId === lost.sessionId)).toEqual([]);

    await second.submit(`${marker} again, after the restart`);
    await second.waitFor(RUN_COMMAND_DIALOG);
    const next = await onPhone(remote, nextCall);
    expect(next.sessionId).toBe(lost.sessionId);
    expect(next.requestId).not.toBe(lost.requestId);
    await remote.respond(next.requestId, { action: 'accept', content: { choice: 'once' } });
    expect(await toolResult(model, nextCall)).toContain('exit code 0');
    expect(existsSync(path.join(at.project, 'after-restart.txt'))).toBe(true);
    expect(existsSync(path.join(at.project, 'before-restart.txt'))).toBe(false);
    expect(await toolResult(model, lostCall)).toMatch(/^Tool execution was interrupted before a result was recorded/);
    await second.waitFor(new RegExp(`finished ${marker}`));
  });
}

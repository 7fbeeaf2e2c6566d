import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DECLINE_STEER_PREFIX } from '../../lib/runtime/agents/codex/to-answer';
import { expect, test } from './support/fixtures';
import { addFile, ASKS_FOR_APPROVAL, callId, cardFor, escalated, modelRead } from './support/scenarios';

// Codex's approvals through the bridge, answered by a scripted phone (the approval card is the lead's to
// build): one TUI (approval_policy on-request, read-only sandbox) asks four times.

test('[R18.12] approvals on the phone: a command accepted, one declined with the reason the model reads, a file change with its diff, wider permissions', async ({
  session,
  remote,
}) => {
  const accepted = 'E2E-run-ok';
  const declined = 'E2E-run-no';
  const patched = 'E2E-patch';
  const widened = 'E2E-permissions';
  // Outside the workspace, so Codex asks; in this test's own folder, known once the session exists.
  let outside = '';
  const codex = await session({
    top: ASKS_FOR_APPROVAL,
    // Under development in 0.171: the model may ask for wider permissions (item/permissions/requestApproval).
    tables: ['[features]', 'request_permissions_tool = true'],
    conversations: [
      {
        marker: accepted,
        turns: [
          () => escalated(`touch ${outside}`, 'Write a marker outside the workspace?'),
          [{ type: 'text', text: `finished ${accepted}` }],
        ],
      },
      {
        marker: declined,
        turns: [
          escalated('touch /tmp/askaway-e2e-never.txt', 'Write to /tmp?'),
          [{ type: 'text', text: `finished ${declined}` }],
        ],
      },
      {
        marker: patched,
        turns: [addFile('patch-1.txt', 'hello from the patch'), [{ type: 'text', text: `finished ${patched}` }]],
      },
      {
        marker: widened,
        turns: [
          () => [
            {
              type: 'function_call',
              name: 'request_permissions',
              arguments: {
                reason: 'Need to write the build cache',
                permissions: { file_system: { write: [outside] } },
              },
            },
          ],
          [{ type: 'text', text: `finished ${widened}` }],
        ],
      },
    ],
  });
  outside = path.join(codex.home.root, 'outside-accepted.txt');
  await codex.bridge();
  const tui = await codex.tui();
  await tui.ready();

  await test.step('a command accepted on the phone runs', async () => {
    await tui.submit(`${accepted}: mark it`);
    const card = await cardFor(remote, (record) => record.toolUseId === callId(accepted, 0, 0));
    expect(card).toMatchObject({
      kind: 'approval',
      toolName: 'exec_command',
      input: {
        subject: 'command',
        command: expect.stringContaining(`touch ${outside}`),
        reason: 'Write a marker outside the workspace?',
        cwd: codex.home.workDir,
      },
    });
    const choices = card.kind === 'approval' ? card.input.choices.map((choice) => [choice.id, choice.effect]) : [];
    // Exactly what Codex offers (accept, the prefix rule, cancel), plus decline.
    expect(choices).toEqual([
      ['accept', 'allow'],
      ['accept-rule-1', 'allow-always'],
      ['decline', 'deny'],
      ['cancel', 'cancel'],
    ]);
    await remote.respond(card.requestId, { action: 'accept', content: { choice: 'accept' } });
    expect((await modelRead(codex.model, callId(accepted, 0, 0))).text).toContain('Process exited with code 0');
    expect(existsSync(outside)).toBe(true);
    await tui.waitFor(new RegExp(`finished ${accepted}`));
  });

  await test.step('a command declined on the phone: the model reads the rejection and the reason', async () => {
    await tui.submit(`${declined}: write to tmp`);
    const card = await cardFor(remote, (record) => record.toolUseId === callId(declined, 0, 0));
    await remote.respond(card.requestId, { action: 'decline', message: 'not outside the repo' });
    const read = await modelRead(codex.model, callId(declined, 0, 0));
    expect(read.text).toBe('exec_command failed: CreateProcess { message: "Rejected(\\"rejected by user\\")" }');
    await expect
      .poll(() => codex.model.userTextsAfter(callId(declined, 0, 0)).join('\n'))
      .toContain(`${DECLINE_STEER_PREFIX}not outside the repo`);
    expect(existsSync('/tmp/askaway-e2e-never.txt')).toBe(false);
    await tui.waitFor(new RegExp(`finished ${declined}`));
  });

  await test.step('a file change shows its diff on the card, and is applied once accepted', async () => {
    await tui.submit(`${patched}: add the file`);
    const card = await cardFor(remote, (record) => record.toolUseId === callId(patched, 0, 0));
    expect(card).toMatchObject({
      kind: 'approval',
      toolName: 'apply_patch',
      input: {
        subject: 'file-change',
        changes: [{ path: path.join(codex.home.workDir, 'patch-1.txt'), kind: 'add', diff: 'hello from the patch\n' }],
      },
    });
    await remote.respond(card.requestId, { action: 'accept', content: { choice: 'accept' } });
    expect((await modelRead(codex.model, callId(patched, 0, 0))).text).toContain(
      'Success. Updated the following files:\nA patch-1.txt',
    );
    expect(readFileSync(path.join(codex.home.workDir, 'patch-1.txt'), 'utf8')).toBe('hello from the patch\n');
    await tui.waitFor(new RegExp(`finished ${patched}`));
  });

  await test.step('wider permissions granted for the turn, exactly as asked', async () => {
    await tui.submit(`${widened}: widen`);
    const card = await cardFor(remote, (record) => record.toolUseId === callId(widened, 0, 0));
    expect(card).toMatchObject({
      kind: 'approval',
      toolName: 'request_permissions',
      input: { subject: 'permissions', reason: 'Need to write the build cache', scope: [`write ${outside}`] },
    });
    await remote.respond(card.requestId, { action: 'accept', content: { choice: 'turn' } });
    expect(JSON.parse((await modelRead(codex.model, callId(widened, 0, 0))).text)).toEqual({
      permissions: { network: null, file_system: { write: [outside] } },
      scope: 'turn',
    });
  });
});

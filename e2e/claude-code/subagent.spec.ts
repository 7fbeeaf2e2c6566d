import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from './support/fixtures';
import { type ScriptedBlock, type ScriptedTurn } from './support/model-server';
import { askUserQuestion, dbQuestion, runSdk } from './support/scenarios';
import { forAgentWork } from '../support/agent-wait';

// Subagents: Claude Code 2.1.332 does not give them AskUserQuestion at all, so no subagent question can
// reach a hook. What does reach the phone from a subagent is a permission prompt (hook install
// --all-tools), and that carries the subagent's type as its label.

function startAgent(id: string, prompt: string): ScriptedBlock[] {
  return [
    {
      type: 'tool_use',
      id,
      name: 'Agent',
      input: { description: 'Pick a database', prompt, subagent_type: 'general-purpose' },
    },
  ];
}

test('[R7.3] evidence: Claude Code offers AskUserQuestion to the main agent only, never to a subagent', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-sub-main';
  const child = 'E2E-sub-child';
  const ws = await workspace([
    { marker, turns: [startAgent('toolu_agent', `${child}: pick a database`)] },
    { marker: child, turns: [askUserQuestion('toolu_sub_ask', { questions: [dbQuestion] })] },
  ]);
  const session = runSdk(claude, ws, `${marker}: set up the service`);
  await expect.poll(() => ws.model.toolResult('toolu_sub_ask'), { timeout: forAgentWork() }).toBeDefined();
  await session.result;

  const main = ws.model.requests.filter((request) => request.conversation === marker);
  const sub = ws.model.requests.filter((request) => request.conversation === child);
  expect(main.length).toBeGreaterThan(0);
  expect(sub.length).toBeGreaterThan(0);
  for (const request of main) expect(request.toolNames).toContain('AskUserQuestion');
  for (const request of sub) expect(request.toolNames).not.toContain('AskUserQuestion');
  // Called anyway, Claude Code refuses it before any hook runs: nothing reaches the phone.
  expect(ws.model.toolResult('toolu_sub_ask')).toMatchObject({
    isError: true,
    content: expect.stringContaining('AskUserQuestion is not available inside subagents'),
  });
  expect(remote.pending().filter((pending) => pending.sessionId === session.sessionId())).toEqual([]);
  expect(session.canUseTool).toEqual([]);
});

test('[R7.3] a subagent permission prompt (--all-tools) reaches the phone labelled with its agent type', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-subperm-main';
  const child = 'E2E-subperm-child';
  let target = '';
  const write: ScriptedTurn = () => [
    { type: 'tool_use', id: 'toolu_sub_write', name: 'Write', input: { file_path: target, content: 'db=sqlite\n' } },
  ];
  const ws = await workspace(
    [
      { marker, turns: [startAgent('toolu_agent2', `${child}: write the config`)] },
      { marker: child, turns: [write] },
    ],
    { allTools: true },
  );
  target = path.join(ws.project.dir, 'db.conf');
  // Print mode asks the SDK host too; it keeps quiet so that the phone's answer is the one that counts.
  const session = runSdk(claude, ws, `${marker}: set up the service`, { answerAfterMs: 15_000 });
  // The subagent runs in the background: the main turn may end before its prompt reaches the phone.
  const record = await remote.next(
    (pending) => pending.sessionId === session.sessionId() && pending.toolName === 'Write',
    forAgentWork(),
  );
  expect(record.kind).toBe('permission');
  expect(record.origin).toMatchObject({
    kind: 'subagent',
    label: 'general-purpose',
    agentType: 'general-purpose',
    depth: 1,
  });
  await remote.respond(record.requestId, { action: 'accept' });

  await expect
    .poll(() => ws.model.toolResult('toolu_sub_write'), { timeout: forAgentWork() })
    .toMatchObject({ isError: false });
  expect(await readFile(target, 'utf8')).toBe('db=sqlite\n');
  expect(session.canUseTool).toHaveLength(1);
  expect(session.canUseTool[0]).toMatchObject({ toolName: 'Write', cancelled: true, answered: false });
  await session.result;
});

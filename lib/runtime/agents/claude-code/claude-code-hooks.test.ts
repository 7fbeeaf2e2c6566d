import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../../host/test-support/test-host';
import { claudeCodeHookHarness, type Via } from './test-support/claude-code-hook-harness';
import { runCli } from '../../test-support/run-cli';
import { pairDevice } from '../../../host/test-support/devices';
import { joinMachine } from '../../../host/test-support/machines';

const harness = claudeCodeHookHarness();
const { payload, deadlines } = harness;
const phone = () => harness.phone();
const runHook = async (...args: Parameters<typeof harness.runHook>) => (await harness.runHook(...args)).reply;

const QUESTIONS = [
  {
    question: 'Which auth library should we use?',
    header: 'Auth',
    options: [
      { label: 'Auth.js (Recommended)', description: 'Fits the Next.js app router' },
      { label: 'Lucia', description: 'Small, more code to write' },
    ],
    multiSelect: false,
  },
  {
    question: 'Which sign-in methods?',
    header: 'Methods',
    options: [
      { label: 'Email link', description: 'Passwordless' },
      { label: 'GitHub', description: 'OAuth' },
    ],
    multiSelect: true,
  },
];

describe.each<Via>(['command', 'http'])('Claude Code hook (%s)', (via) => {
  it('[R11.2][R9.10] answers AskUserQuestion from the phone: allow + updatedInput echoing the questions', async () => {
    const body = payload('PreToolUse', 'AskUserQuestion', { questions: QUESTIONS });
    const reply = runHook(via, body);
    const question = await phone().next((record) => record.toolUseId === body.tool_use_id, 20_000);
    expect(question).toMatchObject({
      sessionId: 'c0ffee00-session',
      origin: { kind: 'root', label: 'Claude Code' },
      context: {
        agentMessage: 'There are two good auth libraries for this stack; I need your call.',
        cwd: '/home/dev/my-app',
        projectName: 'my-app',
      },
    });
    await phone().respond(question.requestId, {
      action: 'accept',
      content: {
        answers: {
          'Which auth library should we use?': 'Auth.js (Recommended)',
          'Which sign-in methods?': 'Email link, GitHub',
        },
        annotations: { 'Which sign-in methods?': { notes: 'GitHub first' } },
      },
    });
    expect(await reply).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        permissionDecisionReason: 'Answered in Askaway',
        updatedInput: {
          questions: QUESTIONS,
          answers: {
            'Which auth library should we use?': 'Auth.js (Recommended)',
            'Which sign-in methods?': 'Email link, GitHub',
          },
          annotations: { 'Which sign-in methods?': { notes: 'GitHub first' } },
        },
      },
    });
  });

  it("[R11.2][R7.1] a subagent's question lands in the root session, labelled with the agent type", async () => {
    const body = payload(
      'PreToolUse',
      'AskUserQuestion',
      { questions: QUESTIONS.slice(0, 1) },
      { id: 'agent-a1b2', type: 'Explore' },
    );
    const reply = runHook(via, body);
    const question = await phone().next((record) => record.toolUseId === body.tool_use_id, 20_000);
    expect(question.sessionId).toBe('c0ffee00-session');
    expect(question.origin).toMatchObject({
      kind: 'subagent',
      label: 'Explore',
      agentId: 'agent-a1b2',
      agentType: 'Explore',
      depth: 1,
    });
    await phone().respond(question.requestId, { action: 'accept', content: { answers: {} } });
    expect(await reply).toMatchObject({
      hookSpecificOutput: {
        permissionDecision: 'allow',
        updatedInput: { questions: QUESTIONS.slice(0, 1), answers: {} },
      },
    });
  });

  it('[R11.2][R3.7] a declined question denies the tool with the reason', async () => {
    const body = payload('PreToolUse', 'AskUserQuestion', { questions: QUESTIONS });
    const reply = runHook(via, body);
    const question = await phone().next((record) => record.toolUseId === body.tool_use_id, 20_000);
    await phone().respond(question.requestId, { action: 'decline', message: 'Ask me at my desk' });
    expect(await reply).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'AskUserQuestion was declined: Ask me at my desk',
      },
    });
  });

  it('[R11.2] falls back to the terminal prompt before the hook timeout and withdraws the question', async () => {
    const body = payload('PreToolUse', 'AskUserQuestion', { questions: QUESTIONS });
    const reply = runHook(via, body, { timeout: '1s' });
    const question = await phone().next((record) => record.toolUseId === body.tool_use_id, 20_000);
    // The 1 s deadline passes when the test says so, not on a wall clock.
    expect(deadlines.pending()).toContain(1_000);
    expect(deadlines.expire(1_000)).toBe(1);
    expect(await reply).toMatchObject({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'ask',
        permissionDecisionReason: 'No answer in Askaway within 1 s; answer here instead.',
      },
    });
    await vi.waitFor(async () => {
      const withdrawn = (await harness.host().registry.readSince(0, 10_000)).filter(
        (event) => event.type === 'interaction.withdrawn',
      );
      expect(withdrawn.map((event) => event.requestId)).toContain(question.requestId);
    });
  });

  it('[R11.2][R3.2] approves an ExitPlanMode plan: allow with updatedInput echoing the tool input', async () => {
    // Claude Code discards a bare allow for tools that need the user (ExitPlanMode, AskUserQuestion).
    const toolInput = { plan: '# Plan\n1. Add Auth.js\n2. Protect /admin', planFilePath: '/nowhere/plan.md' };
    const body = payload('PermissionRequest', 'ExitPlanMode', toolInput);
    const reply = runHook(via, body);
    const plan = await phone().next((record) => record.toolUseId === body.tool_use_id, 20_000);
    expect(plan).toMatchObject({ kind: 'plan-approval', input: { plan: '# Plan\n1. Add Auth.js\n2. Protect /admin' } });
    await phone().respond(plan.requestId, { action: 'accept' });
    expect(await reply).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'allow', updatedInput: toolInput },
      },
    });
  });

  it('[R11.2][R3.2] ExitPlanMode with tool_input {} still reaches the phone, without a plan, and is approved', async () => {
    const body = payload('PermissionRequest', 'ExitPlanMode', {});
    const reply = runHook(via, body);
    const plan = await phone().next((record) => record.toolUseId === body.tool_use_id, 20_000);
    expect(plan).toMatchObject({ kind: 'plan-approval', input: {} });
    await phone().respond(plan.requestId, { action: 'accept' });
    expect(await reply).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: {} } },
    });
  });

  it('[R11.2] a plan Claude Code names only by its plan file is read from that file', async () => {
    const planFilePath = path.join(tempDir('askaway-plans-'), 'quiet-lake.md');
    writeFileSync(planFilePath, '# Plan\n1. Read the plan from disk');
    const body = payload('PermissionRequest', 'ExitPlanMode', { planFilePath });
    const reply = runHook(via, body);
    const plan = await phone().next((record) => record.toolUseId === body.tool_use_id, 20_000);
    expect(plan).toMatchObject({
      kind: 'plan-approval',
      input: { plan: '# Plan\n1. Read the plan from disk', planFilePath },
    });
    await phone().respond(plan.requestId, { action: 'decline', message: 'Not from disk' });
    expect(await reply).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'The user rejected the plan: Not from disk' },
      },
    });
  });

  it('[R11.2] a rejected plan is denied with the feedback as message', async () => {
    const body = payload('PermissionRequest', 'ExitPlanMode', { plan: '# Plan\nDrop the users table' });
    const reply = runHook(via, body);
    const plan = await phone().next((record) => record.toolUseId === body.tool_use_id, 20_000);
    await phone().respond(plan.requestId, { action: 'decline', message: 'Keep the users table' });
    expect(await reply).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'The user rejected the plan: Keep the users table' },
      },
    });
  });

  it('[R11.2] other tools are answered only with --all-tools', async () => {
    const bash = { command: 'npm run migrate', description: 'Apply migrations' };
    expect(await runHook(via, payload('PermissionRequest', 'Bash', bash))).toEqual({});
    const body = payload('PermissionRequest', 'Bash', bash);
    const reply = runHook(via, body, { allTools: true });
    const permission = await phone().next((record) => record.toolUseId === body.tool_use_id, 20_000);
    expect(permission).toMatchObject({ kind: 'permission', toolName: 'Bash', input: bash });
    await phone().respond(permission.requestId, { action: 'accept' });
    expect(await reply).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: bash } },
    });
  });
});

describe('Claude Code HTTP hook endpoint', () => {
  it('[R12.1][R16.1][R16.6] takes the agent token in a header only; a device credential or ?token= is refused', async () => {
    const body = JSON.stringify(payload('PreToolUse', 'Read', { file_path: '/tmp/x' }));
    const post = (query: string, headers: Record<string, string> = {}) =>
      fetch(`${harness.host().url}/hooks/claude-code${query}`, { method: 'POST', body, headers });
    expect((await post('')).status).toBe(401);
    const inUrl = await post(`?token=${encodeURIComponent(harness.host().token)}`);
    expect(inUrl.status).toBe(400);
    expect(await inUrl.json()).toEqual({ error: expect.stringContaining('A token in the URL is not accepted') });
    const device = await post('', { Authorization: `Bearer ${(await pairDevice(harness.host())).credential}` });
    expect(device.status).toBe(401);
    expect(await device.json()).toEqual({ error: expect.stringContaining('This is a device credential') });
    const accepted = await post('', { Authorization: `Bearer ${harness.host().token}` });
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({});
  });

  it("[R17.2] a joined machine's call opens no file on the hub: its transcript and plan file paths are that machine's", async () => {
    const dir = tempDir('askaway-hub-files-');
    const planFilePath = path.join(dir, 'secret.md');
    writeFileSync(planFilePath, '# ONLY-ON-THE-HUB plan');
    const transcript = path.join(dir, 'transcript.jsonl');
    writeFileSync(
      transcript,
      `${JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'ONLY-ON-THE-HUB message' }] } })}\n`,
    );
    const laptop = await joinMachine(harness.host(), 'laptop');
    const body = { ...payload('PermissionRequest', 'ExitPlanMode', { planFilePath }), transcript_path: transcript };
    const reply = fetch(`${harness.host().url}/hooks/claude-code`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { Authorization: `Bearer ${laptop.credential}`, 'Content-Type': 'application/json' },
    });
    const plan = await phone().next((record) => record.machine.id === laptop.machine.id, 20_000);
    expect(plan).toMatchObject({ kind: 'plan-approval', input: { planFilePath } });
    expect(JSON.stringify(plan)).not.toContain('ONLY-ON-THE-HUB');
    await phone().respond(plan.requestId, { action: 'accept' });
    expect((await reply).status).toBe(200);
  });

  it('[R11.2] a garbled body from the command hook (a real process) yields no output and exit code 0', async () => {
    const run = await runCli(['hook', 'claude-code'], {
      stdin: 'not json',
      env: { ASKAWAY_URL: harness.host().url, ASKAWAY_TOKEN: harness.host().token },
    });
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(run.stderr).toContain('could not read the hook JSON');
  });
});

import path from 'node:path';
import { type InteractionRecord } from '../../lib/contracts';
import { FORM_STOPPED_REASON } from '../../lib/runtime/agents/claude-code/elicitation';
import { expect, test, type Workspace } from './support/fixtures';
import {
  confirm,
  passFirstRunDialogs,
  startInteractive,
  submitPrompt,
  waitForDialog,
  waitForScreen,
} from './support/interactive';
import { finish, onPhone, runSdk } from './support/scenarios';
import { forAgentWork } from '../support/agent-wait';

// An MCP server's form (elicitation/create) through Claude Code's Elicitation hook (R11.11): the real
// `claude`, a stdio MCP server of the project (support/elicit-mcp-server.mjs, the official SDK), the hooks
// `askaway hook install --write` wrote, and the real card in Chromium. The server logs what it received.

const SERVER = { name: 'elicit', script: path.join(import.meta.dirname, 'support', 'elicit-mcp-server.mjs') };

/** The model calls one of the server's tools, then says it is done. */
const callTool = (marker: string, id: string, tool: string) => ({
  marker,
  turns: [[{ type: 'tool_use' as const, id, name: `mcp__${SERVER.name}__${tool}`, input: {} }]],
});

/** What the tool answered (the server's own words: `form result: {…}`), parsed. */
function formResult(content: string): unknown {
  const match = /^form result: (\{.*\})/s.exec(content);
  if (!match?.[1]) throw new Error(`the MCP tool did not return a form result: ${content}`);
  return JSON.parse(match[1]) as unknown;
}

async function serverGot(workspace: Workspace, tool: string): Promise<unknown> {
  await expect
    .poll(async () => (await workspace.project.mcpServerLog()).length, { timeout: forAgentWork() })
    .toBeGreaterThan(0);
  const [entry] = await workspace.project.mcpServerLog();
  expect(entry).toMatchObject({ tool });
  return entry?.result ?? entry;
}

const isForm = (record: InteractionRecord) => record.kind === 'form' && record.toolName === `mcp__${SERVER.name}`;

test('[R11.11][R18.4] print mode: the form filled in on the real card reaches the MCP server, and the model reads it', async ({
  claude,
  phone,
  remote,
  workspace,
}) => {
  const marker = 'E2E-form-phone';
  const ws = await workspace([callTool(marker, 'toolu_form_phone', 'configure_deploy')], {
    mcpServer: SERVER,
    trusted: true,
  });
  // Ours joined the project's own settings: its MCP server stays enabled and allowed.
  expect(await ws.project.settings()).toMatchObject({
    enableAllProjectMcpServers: true,
    permissions: { allow: ['mcp__elicit'] },
    hooks: { Elicitation: [{ hooks: [{ type: 'command', timeout: 60 }] }] },
  });
  const session = runSdk(claude, ws, `${marker}: deploy it`);
  const record = await onPhone(
    remote,
    session,
    (candidate) => candidate.sessionId === session.sessionId() && isForm(candidate),
  );
  expect(record).toMatchObject({
    agent: { kind: 'claude-code' },
    input: { serverName: 'elicit', message: 'Configure the deployment', mode: 'form' },
  });

  const card = await phone.openCard(record.requestId);
  const page = phone.page;
  await expect(page.getByTestId('countdown')).toHaveAttribute('data-kind', 'terminal');
  await expect(page.getByTestId('countdown')).toHaveText(/^Moves to the terminal on .+ in 0:[0-5]\d$/);
  const field = (name: string) => page.locator(`[data-testid="card.form-field"][data-field="${name}"]`);
  // A phone steps through the fields, one at a time, defaults filled in.
  await field('service').locator('input').fill('payments');
  await page.getByTestId('card.next').click();
  await expect(field('replicas').locator('input')).toHaveValue('2');
  await field('replicas').locator('input').fill('3');
  await page.getByTestId('card.next').click();
  await field('region').getByText('United States').click();
  await page.getByTestId('card.next').click();
  await field('features').getByText('traces').click();
  await page.getByTestId('card.next').click();
  await field('public').locator('input[role="switch"]').check();
  await page.getByTestId('card.next').click();
  // The phone's picker says a local time; the server gets it as RFC 3339, which its schema check wants.
  await field('start').locator('input').fill('2027-03-01T10:30');
  const start = await page.evaluate(() => new Date('2027-03-01T10:30').toISOString());
  await page.getByTestId('card.submit').click();
  await expect(card.receipt).toBeVisible();

  const values = { service: 'payments', replicas: 3, region: 'us', features: ['logs', 'traces'], public: true, start };
  expect(await serverGot(ws, 'configure_deploy')).toEqual({ action: 'accept', content: values });
  const result = await finish(session, ws, 'toolu_form_phone');
  expect(formResult(result.content)).toEqual({ action: 'accept', content: values });
  await expect(page.getByTestId('card.receipt-applied')).toContainText('Received by the agent');
});

test('[R11.11][R18.4] print mode: every kind of field reaches the card as the server sent it; declined on the phone', async ({
  claude,
  phone,
  remote,
  workspace,
}) => {
  const marker = 'E2E-form-decline';
  const ws = await workspace([callTool(marker, 'toolu_form_decline', 'describe_service')], {
    mcpServer: SERVER,
    trusted: true,
  });
  const session = runSdk(claude, ws, `${marker}: describe it`);
  const record = await onPhone(
    remote,
    session,
    (candidate) => candidate.sessionId === session.sessionId() && isForm(candidate),
  );
  if (record.kind !== 'form') throw new Error('not a form');
  expect(record.input.fields.map((field) => [field.name, field.type, field.required])).toEqual([
    ['name', 'string', true],
    ['email', 'string', false],
    ['launch', 'string', false],
    ['replicas', 'integer', false],
    ['ratio', 'number', false],
    ['public', 'boolean', false],
    ['region', 'enum', true],
    ['tier', 'enum', false],
    ['features', 'enum', true],
  ]);

  await phone.openCard(record.requestId);
  await phone.page.getByTestId('card.menu').click();
  await phone.page.getByTestId('card.decline').click();
  await phone.page.getByTestId('card.form-dialog').getByRole('button', { name: 'Decline' }).click();

  expect(await serverGot(ws, 'describe_service')).toEqual({ action: 'decline' });
  const result = await finish(session, ws, 'toolu_form_decline');
  expect(formResult(result.content)).toEqual({ action: 'decline' });
});

test('[R11.11] print mode: an MCP server that gives up on its form stops the hook, and the card leaves saying so', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-form-gave-up';
  // The SDK's own request timeout is 60 s; this server waits 3 s, inside the phone's 30 s.
  const ws = await workspace([callTool(marker, 'toolu_form_gave_up', 'pick_region')], {
    mcpServer: { ...SERVER, env: { MCP_REQUEST_TIMEOUT_MS: '3000' } },
    trusted: true,
  });
  const session = runSdk(claude, ws, `${marker}: pick the region`);
  const record = await onPhone(
    remote,
    session,
    (candidate) => candidate.sessionId === session.sessionId() && isForm(candidate),
  );
  // The server cancels its request; Claude Code stops the hook, which withdraws the card.
  await expect
    .poll(() => remote.withdrawn(record.requestId)?.reason, { timeout: forAgentWork() })
    .toBe(FORM_STOPPED_REASON);
  const result = await finish(session, ws, 'toolu_form_gave_up');
  expect(result.content).toContain('form error: McpError: MCP error -32001: Request timed out');
});

test('[R11.11] interactive UI: the wait ends, the card leaves for the terminal, the form is answered there; a late phone answer gets the receipt', async ({
  claude,
  phone,
  remote,
  workspace,
}) => {
  const marker = 'E2E-form-terminal';
  const ws = await workspace([callTool(marker, 'toolu_form_terminal', 'pick_region')], {
    mcpServer: SERVER,
    formWait: '6s',
  });
  const tmux = await startInteractive(claude, ws);
  await passFirstRunDialogs(tmux);
  await submitPrompt(tmux, `${marker}: pick the region`);

  const record = await remote.next(
    (candidate) => isForm(candidate) && JSON.stringify(candidate.context).includes(ws.project.dir),
    forAgentWork(),
  );
  await phone.openCard(record.requestId);
  await expect(phone.page.getByTestId('countdown')).toHaveText(/^Moves to the terminal on .+ in 0:0\d$/);
  // Meanwhile the terminal shows no form, only that the hook runs.
  const during = await waitForScreen(tmux, /running Elicitation hook/);
  expect(during).not.toMatch(/requests your input/);

  // The wait is over: the card the person holds turns into the receipt, and the form is in the terminal.
  const receipt = phone.page.getByTestId('card.receipt');
  await expect(receipt).toHaveAttribute('data-state', 'withdrawn', { timeout: forAgentWork() });
  await expect(phone.page.getByTestId('card.receipt-status')).toContainText('Moved to the terminal on');
  expect(remote.withdrawn(record.requestId)?.reason).toMatch(
    /^Moved to the terminal on .+: no answer here within 6 s, so Claude Code asks there$/,
  );
  await waitForDialog(tmux, /MCP server “elicit” requests your input[\s\S]*❯ ✔ Region: ▸ Europe/);
  await tmux.keys(['Right']);
  await waitForScreen(tmux, /❯ ◉ Europe/);
  await tmux.keys(['Down']);
  await waitForScreen(tmux, /❯ ◯ United States/);
  await tmux.keys(['Enter']);
  // Claude Code drops an Enter that comes as the cursor lands on Accept: let it settle first.
  await waitForDialog(tmux, /✔ Region: United States\s*\n\s*❯ Accept/);
  await confirm(tmux, /requests your input/);

  expect(await serverGot(ws, 'pick_region')).toEqual({ action: 'accept', content: { region: 'us' } });
  await expect
    .poll(() => ws.model.toolResult('toolu_form_terminal')?.content, { timeout: forAgentWork() })
    .toBe('form result: {"action":"accept","content":{"region":"us"}}');
  // The phone's answer, late: refused with the withdrawal, and the server got nothing else.
  const late = await remote.respond(record.requestId, { action: 'accept', content: { values: { region: 'eu' } } });
  expect(late).toMatchObject({ ok: false, error: { code: 'withdrawn' } });
  expect(await ws.project.mcpServerLog()).toHaveLength(1);
});

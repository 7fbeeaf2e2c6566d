import path from 'node:path';
import { expect, test } from './support/fixtures';
import { callId, cardFor, mcpTool, modelRead } from './support/scenarios';

// An MCP server's elicitation form through the bridge: Codex first asks to allow the tool call (an
// approval), then carries the server's form; a scripted phone answers both.

const SERVER = path.join(import.meta.dirname, 'support', 'form-mcp-server.mjs');

test('[R18.12] an MCP form answered from the phone: the tool-call approval, then the form, and the model reads the values', async ({
  session,
  remote,
}) => {
  const marker = 'E2E-form';
  const codex = await session({
    tables: [
      '[mcp_servers.e2eform]',
      `command = ${JSON.stringify(process.execPath)}`,
      `args = [${JSON.stringify(SERVER)}]`,
    ],
    conversations: [{ marker, turns: [...mcpTool('ask_deploy'), [{ type: 'text', text: `finished ${marker}` }]] }],
  });
  await codex.bridge();
  const tui = await codex.tui();
  await tui.ready();
  await tui.submit(`${marker}: deploy it`);

  const approval = await cardFor(remote, (record) => record.toolName === 'mcp__e2eform__ask_deploy');
  expect(approval).toMatchObject({
    kind: 'approval',
    toolName: 'mcp__e2eform__ask_deploy',
    input: { subject: 'tool', tool: { name: 'e2eform: ask_deploy' } },
  });
  await remote.respond(approval.requestId, { action: 'accept', content: { choice: 'allow' } });

  const form = await cardFor(remote, (record) => record.kind === 'form');
  // Codex 0.171 hands the schema on with its properties sorted by name.
  expect(form).toMatchObject({
    kind: 'form',
    input: {
      serverName: 'e2eform',
      message: 'Where should this deploy go?',
      mode: 'form',
      fields: [
        { name: 'note', type: 'string', required: false },
        { name: 'notify', type: 'boolean', required: false },
        { name: 'replicas', type: 'integer', minimum: 1, maximum: 5, required: false },
        { name: 'target', type: 'enum', required: true, options: [{ value: 'staging' }, { value: 'production' }] },
      ],
    },
  });
  // The host checks the values against the fields before the bridge sees them.
  expect(
    await remote.respond(form.requestId, { action: 'accept', content: { values: { target: 'moon' } } }),
  ).toMatchObject({ ok: false, error: { code: 'invalid-response' } });
  await remote.respond(form.requestId, {
    action: 'accept',
    content: { values: { target: 'staging', replicas: 2, notify: true, note: 'from the phone' } },
  });
  const read = await modelRead(codex.model, callId(marker, 1, 0));
  expect(read.text).toContain(
    'form result: {"action":"accept","content":{"target":"staging","replicas":2,"notify":true,"note":"from the phone"}}',
  );
  await tui.waitFor(new RegExp(`finished ${marker}`));
});

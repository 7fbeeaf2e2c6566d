// Prompts as Copilot CLI 1.0.102 sent them (`promptRequest` of `permission.requested`, `elicitation.requested`'s
// data), captured against a scripted model.

export const shellPrompt = (overrides: Record<string, unknown> = {}) => ({
  kind: 'commands',
  fullCommandText: 'touch sub.txt',
  intention: 'Runs touch sub.txt',
  commandIdentifiers: ['touch'],
  canOfferSessionApproval: true,
  toolCallId: 'call_sub',
  ...overrides,
});

/** A command Copilot offers no session approval for (a redirection). */
export const redirectPrompt = {
  kind: 'commands',
  fullCommandText: 'echo hello-from-copilot > out.txt',
  intention: 'Writes a file',
  commandIdentifiers: [],
  canOfferSessionApproval: false,
  toolCallId: 'call_1',
};

export const writePrompt = {
  kind: 'write',
  toolCallId: 'call_create',
  intention: 'Create file',
  fileName: '/tmp/cplab/proj/new.txt',
  diff: '\ndiff --git a/tmp/cplab/proj/new.txt b/tmp/cplab/proj/new.txt\ncreate file mode 100644\nindex 0000000..0000000\n--- a/dev/null\n+++ b/tmp/cplab/proj/new.txt\n@@ -1,0 +1,1 @@\n+hi\n',
  newFileContents: 'hi\n',
  fileEdits: [{ after: { path: '/tmp/cplab/proj/new.txt', content: 'hi\n' } }],
  canOfferSessionApproval: true,
};

export const urlPrompt = {
  kind: 'url',
  intention: 'Fetch the release notes',
  url: 'https://example.com/notes?x=1',
  toolCallId: 'call_url',
};

export const mcpPrompt = {
  kind: 'mcp',
  serverName: 'tickets',
  toolName: 'close_ticket',
  toolTitle: 'Close ticket',
  args: { id: 42 },
  toolCallId: 'call_mcp',
};

/** `ask_user`'s schema as Copilot passes it on: `required` dropped. */
export const dbSchema = {
  type: 'object',
  properties: {
    db: { type: 'string', enum: ['Postgres', 'SQLite'] },
    notes: { type: 'string', title: 'Notes' },
  },
};

import { describe, expect, it } from 'vitest';
import { ApprovalInputSchema } from '../../../contracts';
import { dbSchema, mcpPrompt, redirectPrompt, shellPrompt, urlPrompt, writePrompt } from './fixtures';
import { CopilotPromptSchema } from './copilot-shapes';
import { formOf, permissionInteraction, type CopilotPlace } from './to-interaction';

const place: CopilotPlace = { sessionId: 's-1', cwd: '/home/ada/shop', version: '1.0.102' };
const approval = (prompt: unknown) => {
  const { interaction, decisions } = permissionInteraction('req-1', CopilotPromptSchema.parse(prompt), place);
  const input = ApprovalInputSchema.parse(interaction.input);
  return { interaction, input, decisions };
};

describe('[R18.31] Copilot prompts as approval cards', () => {
  it("[R18.31] a command: its text, the directory, Copilot's reason; the session choice only where Copilot offers it", () => {
    const { input, decisions, interaction } = approval(shellPrompt());
    expect(interaction).toMatchObject({ requestId: 'copilot-req-1', toolName: 'bash', toolUseId: 'call_sub' });
    expect(input).toMatchObject({
      subject: 'command',
      command: 'touch sub.txt',
      cwd: '/home/ada/shop',
      reason: 'Runs touch sub.txt',
    });
    expect(input.choices.map((choice) => [choice.id, choice.effect])).toEqual([
      ['once', 'allow'],
      ['session', 'allow-session'],
      ['reject', 'deny'],
    ]);
    expect(decisions.session).toEqual({
      kind: 'approve-for-session',
      approval: { kind: 'commands', commandIdentifiers: ['touch'] },
    });
    // Copilot's TUI offers only Yes / No for a command with a redirection.
    expect(approval(redirectPrompt).input.choices.map((choice) => choice.id)).toEqual(['once', 'reject']);
  });

  it('[R18.31] a file write is a file change with its diff; a URL and an MCP tool fit their cards', () => {
    const write = approval(writePrompt).input;
    expect(write).toMatchObject({
      subject: 'file-change',
      changes: [{ path: '/tmp/cplab/proj/new.txt', kind: 'add' }],
      reason: 'Create file',
    });
    expect(write.changes?.[0]?.diff).toContain('+hi');
    const url = approval(urlPrompt);
    expect(url.input).toMatchObject({ subject: 'permissions', scope: ['https://example.com/notes?x=1'] });
    expect(url.decisions.session).toEqual({ kind: 'approve-for-session', domain: 'example.com' });
    const mcp = approval(mcpPrompt);
    expect(mcp.interaction.toolName).toBe('mcp__tickets__close_ticket');
    expect(mcp.input).toMatchObject({ subject: 'tool', tool: { name: 'tickets: Close ticket', input: '{"id":42}' } });
    expect(mcp.decisions.session).toEqual({
      kind: 'approve-for-session',
      approval: { kind: 'mcp', serverName: 'tickets', toolName: 'close_ticket' },
    });
  });

  it('[R18.31] a kind the card has no shape for is shown as a tool with what Copilot sent', () => {
    const { input } = approval({ kind: 'extension-management', operation: 'reload', extensionName: 'lint' });
    expect(input).toMatchObject({ subject: 'tool', tool: { name: 'extension-management' } });
    expect(input.tool?.input).toContain('"operation":"reload"');
  });

  it('[R18.33] ask_user is a form of optional fields; a schema the form cannot show stays in the terminal', () => {
    const form = formOf({ requestId: 'e-1', message: 'Which database?', requestedSchema: dbSchema });
    expect(form).toMatchObject({
      mode: 'form',
      fields: [
        { name: 'db', type: 'enum', required: false },
        { name: 'notes', type: 'string' },
      ],
    });
    expect(
      formOf({
        requestId: 'e-2',
        message: 'x',
        requestedSchema: { type: 'object', properties: { a: { type: 'object' } } },
      }),
    ).toHaveProperty('unsupported');
  });
});

// A stdio MCP server for the Codex suite: its one tool asks the person through an elicitation form (R18.12).
// Codex starts it from config.toml ([mcp_servers.e2eform]); the tool returns what the form sent back.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'e2eform', version: '0.0.1' });

server.registerTool(
  'ask_deploy',
  { description: 'Ask where and how to deploy, through an elicitation form.', inputSchema: {} },
  async () => {
    const result = await server.server.elicitInput({
      mode: 'form',
      message: 'Where should this deploy go?',
      requestedSchema: {
        type: 'object',
        properties: {
          target: { type: 'string', title: 'Target', enum: ['staging', 'production'] },
          replicas: { type: 'integer', title: 'Replicas', minimum: 1, maximum: 5 },
          notify: { type: 'boolean', title: 'Notify the team' },
          note: { type: 'string', title: 'Note' },
        },
        required: ['target'],
      },
    });
    return { content: [{ type: 'text', text: `form result: ${JSON.stringify(result)}` }] };
  },
);

await server.connect(new StdioServerTransport());

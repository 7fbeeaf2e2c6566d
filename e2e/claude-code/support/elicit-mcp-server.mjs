// A stdio MCP server for the Claude Code suite whose tools ask the person through `elicitation/create` (R11.11).
// Claude Code starts it from the project's .mcp.json; each tool returns what the elicitation sent back, and
// MCP_SERVER_LOG (a file) gets one JSON line per result, so a test sees exactly what the server received.
// MCP_REQUEST_TIMEOUT_MS overrides the SDK's own request timeout (60 s) for the elicitation.
import { appendFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const log = (entry) => {
  if (process.env.MCP_SERVER_LOG)
    appendFileSync(process.env.MCP_SERVER_LOG, `${JSON.stringify({ at: Date.now(), ...entry })}\n`);
};
const timeout = process.env.MCP_REQUEST_TIMEOUT_MS
  ? { timeout: Number(process.env.MCP_REQUEST_TIMEOUT_MS) }
  : undefined;

/** The deploy form: every kind of field MCP allows, with titles, bounds, defaults and required ones. */
export const DEPLOY_FORM = {
  mode: 'form',
  message: 'Configure the deployment',
  requestedSchema: {
    type: 'object',
    properties: {
      service: { type: 'string', title: 'Service name', description: 'A short name', minLength: 2, maxLength: 30 },
      replicas: { type: 'integer', title: 'Replicas', minimum: 1, maximum: 10, default: 2 },
      region: {
        type: 'string',
        title: 'Region',
        enum: ['eu', 'us'],
        enumNames: ['Europe', 'United States'],
        default: 'eu',
      },
      features: {
        type: 'array',
        title: 'Features',
        minItems: 1,
        items: { type: 'string', enum: ['logs', 'metrics', 'traces'] },
        default: ['logs'],
      },
      public: { type: 'boolean', title: 'Public endpoint', default: false },
      start: { type: 'string', title: 'Deploy at', format: 'date-time' },
    },
    required: ['service', 'region', 'features'],
  },
};

/** A form the terminal can accept as it comes: every required field has a default. */
export const REGION_FORM = {
  mode: 'form',
  message: 'Pick the region',
  requestedSchema: {
    type: 'object',
    properties: {
      region: {
        type: 'string',
        title: 'Region',
        enum: ['eu', 'us'],
        enumNames: ['Europe', 'United States'],
        default: 'eu',
      },
    },
    required: ['region'],
  },
};

/** Every kind of field MCP allows, in each of its spellings (enumNames, titled oneOf, array items). */
export const EVERY_FIELD_FORM = {
  mode: 'form',
  message: 'Tell us about the service',
  requestedSchema: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        title: 'Service name',
        description: 'A short name',
        minLength: 2,
        maxLength: 30,
        default: 'api',
      },
      email: { type: 'string', title: 'Owner email', format: 'email' },
      launch: { type: 'string', title: 'Launch day', format: 'date' },
      replicas: { type: 'integer', title: 'Replicas', minimum: 1, maximum: 10, default: 2 },
      ratio: { type: 'number', title: 'Canary ratio', minimum: 0, maximum: 1 },
      public: { type: 'boolean', title: 'Public endpoint', default: false },
      region: {
        type: 'string',
        title: 'Region',
        enum: ['eu', 'us'],
        enumNames: ['Europe', 'United States'],
        default: 'eu',
      },
      tier: {
        type: 'string',
        title: 'Tier',
        oneOf: [
          { const: 'free', title: 'Free tier' },
          { const: 'pro', title: 'Pro tier' },
        ],
      },
      features: {
        type: 'array',
        title: 'Features',
        minItems: 1,
        maxItems: 2,
        items: { type: 'string', enum: ['logs', 'metrics', 'traces'] },
        default: ['logs'],
      },
    },
    required: ['name', 'region', 'features'],
  },
};

const server = new McpServer({ name: 'e2e-elicit', version: '0.0.1' });

function elicitingTool(name, description, params) {
  server.registerTool(name, { description, inputSchema: {} }, async () => {
    try {
      const result = await server.server.elicitInput(params, timeout);
      log({ tool: name, result });
      return { content: [{ type: 'text', text: `form result: ${JSON.stringify(result)}` }] };
    } catch (error) {
      log({ tool: name, error: String(error) });
      return { content: [{ type: 'text', text: `form error: ${String(error)}` }], isError: true };
    }
  });
}

elicitingTool('configure_deploy', 'Ask how to deploy, through an elicitation form.', DEPLOY_FORM);
elicitingTool('describe_service', 'Ask about the service, through an elicitation form.', EVERY_FIELD_FORM);
elicitingTool('pick_region', 'Ask for the region, through an elicitation form.', REGION_FORM);
elicitingTool('sign_in', 'Send the person to a sign-in page (URL elicitation).', {
  mode: 'url',
  message: 'Sign in to the deploy service',
  url: 'https://deploy.example/authorize?state=e2e',
  elicitationId: 'e2e-sign-in',
});

await server.connect(new StdioServerTransport());

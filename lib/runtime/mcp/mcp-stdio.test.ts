import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll } from 'vitest';
import { type Host } from '../../host';
import { closeAllHosts, startTestHost, tempDir } from '../../host/test-support/test-host';
import { describeMcpContract } from '../test-support/mcp-scenarios';
import { cliCommand } from '../test-support/run-cli';

const CLIENT = { name: 'stdio-test-client', version: '1.2.3' };

function stdioClient(env: Record<string, string>): { client: Client; transport: StdioClientTransport } {
  const cli = cliCommand(['mcp']);
  const transport = new StdioClientTransport({
    command: cli.command,
    args: cli.args,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    cwd: cli.cwd,
    stderr: 'pipe',
  });
  return { client: new Client(CLIENT), transport };
}

let host: Host;
let client: Client;

beforeAll(async () => {
  host = await startTestHost();
  const stdio = stdioClient({ ASKAWAY_URL: host.url, ASKAWAY_TOKEN: host.token, ASKAWAY_DATA_DIR: tempDir() });
  client = stdio.client;
  await client.connect(stdio.transport);
}, 60_000);

afterAll(async () => {
  await client.close();
  await closeAllHosts();
});

describeMcpContract('stdio', () => ({ host, client }), CLIENT);

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeMcpContract } from '../../runtime/test-support/mcp-scenarios';
import { type Host } from '../create-host';
import { pairDevice } from '../test-support/devices';
import { closeAllHosts, startTestHost } from '../test-support/test-host';
import { mountAgentBridges, type AgentBridges } from './index';

const CLIENT = { name: 'http-test-client', version: '4.5.6' };
let host: Host;
let bridges: AgentBridges;
let client: Client;

beforeAll(async () => {
  host = await startTestHost();
  bridges = mountAgentBridges(host);
  client = new Client(CLIENT);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${host.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${host.token}` } },
    }),
  );
});

afterAll(async () => {
  await client.close();
  await bridges.close();
  await closeAllHosts();
});

describeMcpContract('streamable HTTP', () => ({ host, client }), CLIENT);

describe('MCP over HTTP: access', () => {
  it('[R12.1] refuses a request without the bearer token', async () => {
    const response = await fetch(`${host.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { message: expect.stringContaining('Bearer') } });
  });

  it('[R12.1] a client with a wrong token cannot connect', async () => {
    const intruder = new Client({ name: 'intruder', version: '0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${host.url}/mcp`), {
      requestInit: { headers: { Authorization: 'Bearer wrong' } },
    });
    await expect(intruder.connect(transport)).rejects.toThrow();
  });

  it('[R16.1] a device credential is refused, and the refusal says what it is', async () => {
    const response = await fetch(`${host.url}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        Authorization: `Bearer ${pairDevice(host).credential}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({
      error: { message: expect.stringContaining('This is a device credential: it opens the phone app only') },
    });
  });
});

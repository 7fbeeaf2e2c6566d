import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAskUserQuestion, describeMcpContract, TWO_QUESTIONS } from '../runtime/test-support/mcp-scenarios';
import { connectScriptedRemote } from '../runtime/test-support/scripted-remote';
import { type Host } from '../host/create-host';
import { pairDevice } from '../host/test-support/devices';
import { joinMachine } from '../host/test-support/machines';
import { closeAllHosts, startTestHost } from '../host/test-support/test-host';
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
        Authorization: `Bearer ${(await pairDevice(host)).credential}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({
      error: { message: expect.stringContaining('This is a device credential: it opens the phone app only') },
    });
  });
});

describe('MCP over HTTP: joined machines', () => {
  it('[R17.3] a joined machine calling with its credential asks as that machine, and only it may use its session', async () => {
    const laptop = await joinMachine(host, 'laptop');
    const transport = new StreamableHTTPClientTransport(new URL(`${host.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${laptop.credential}` } },
    });
    const machineClient = new Client({ name: 'laptop-client', version: '1' });
    await machineClient.connect(transport);
    const phone = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
    try {
      const call = callAskUserQuestion(machineClient, TWO_QUESTIONS);
      const question = await phone.next();
      expect(question.machine).toEqual(laptop.machine);
      expect(question.requestId.startsWith(`${laptop.machine.id}:`)).toBe(true);
      const response = { action: 'accept' as const, content: { answers: { 'Which database?': 'SQLite' } } };
      expect(await phone.respond(question.requestId, response)).toMatchObject({ ok: true, status: 'accepted' });
      expect((await call).text).toContain('"Which database?"="SQLite"');

      const hijack = await fetch(`${host.url}/mcp`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          Authorization: `Bearer ${host.token}`,
          'mcp-session-id': transport.sessionId ?? '',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }),
      });
      expect(hijack.status).toBe(404);
    } finally {
      phone.close();
      await machineClient.close();
    }
  });
});

describe('MCP over HTTP: session limits', () => {
  it('[R12.10] a caller opening sessions past its limit evicts only its own: the hub agent keeps its session', async () => {
    const flooder = await joinMachine(host, 'flooder');
    const initialize = (token: string) =>
      fetch(`${host.url}/mcp`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          Authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
        }),
      });
    const first = await initialize(flooder.credential);
    const firstSession = first.headers.get('mcp-session-id') ?? '';
    await first.body?.cancel();
    for (let session = 0; session < 70; session += 1) await (await initialize(flooder.credential)).body?.cancel();
    // The hub's own client (connected before the flood) still works; the flooder's first session is gone.
    await expect(client.listTools()).resolves.toMatchObject({
      tools: [expect.objectContaining({ name: 'AskUserQuestion' })],
    });
    const stale = await fetch(`${host.url}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        Authorization: `Bearer ${flooder.credential}`,
        'mcp-session-id': firstSession,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
    });
    expect(stale.status).toBe(404);
  });
});

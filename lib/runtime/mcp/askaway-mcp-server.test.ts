import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAllHosts, startTestHost } from '../../host/test-support/test-host';
import { runtimeClientProvider } from '../runtime-client-provider';
import { callAskUserQuestion, TWO_QUESTIONS } from '../test-support/mcp-scenarios';
import { createAskawayMcpServer } from './askaway-mcp-server';

afterEach(async () => {
  await closeAllHosts();
});

describe('AskUserQuestion MCP server', () => {
  it('[R11.1] with no host running, a call is an error result saying how to start it', async () => {
    const gone = await startTestHost();
    const url = gone.url;
    await gone.close();
    const runtime = runtimeClientProvider({ url, token: 'whatever' });
    // Nothing listens at `url`: the host check fails however long it waits, so it need not wait 3 s.
    const server = createAskawayMcpServer({ runtime, sessionId: 'mcp-test', version: '0.0.0', hostCheckTimeoutMs: 50 });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'in-process-client', version: '1' });
    await server.connect(serverSide);
    await client.connect(clientSide);
    try {
      const result = await callAskUserQuestion(client, TWO_QUESTIONS);
      expect(result.isError).toBe(true);
      expect(result.text).toContain(`Askaway host is not reachable at ${url}`);
      expect(result.text).toContain('askaway start');
    } finally {
      await client.close();
      await runtime.close();
    }
  });
});

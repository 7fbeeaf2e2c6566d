import { afterEach, describe, expect, it, vi } from 'vitest';
import { pairDevice } from '../../../host/test-support/devices';
import { closeAllHosts, startTestHost, TEST_TOKEN } from '../../../host/test-support/test-host';
import { runtimeClientProvider } from '../../runtime-client-provider';
import { connectScriptedRemote, type ScriptedRemote } from '../../test-support/scripted-remote';
import { ACP_PROMPTS_HELD_BYTES_MAX, ACP_REMEMBERED_MAX, createAcpProxy, type AcpProxy } from './proxy';
import {
  AGENT_CANCELLED_REASON,
  AGENT_EXITED_REASON,
  ANSWERED_IN_EDITOR_REASON,
  ANSWERED_ON_PHONE_TEXT,
  TURN_CANCELLED_REASON,
} from './terminal-answer';

const opened: { proxy: AcpProxy; remote: ScriptedRemote }[] = [];

afterEach(async () => {
  for (const { proxy, remote } of opened.splice(0)) {
    remote.close();
    await proxy.close();
  }
  await closeAllHosts();
});

/** Gemini CLI 0.61's options for a shell command (its ids start at 0). */
const GEMINI_OPTIONS = [
  { optionId: 'proceed_always', name: 'Always Allow', kind: 'allow_always' },
  { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
];

const line = (message: unknown) => JSON.stringify(message);

/** The agent's `session/request_permission` for sess-1 about `toolCall`, with Gemini's options. */
const permissionRequest = (id: number | string, toolCall: Record<string, unknown>) =>
  line({
    jsonrpc: '2.0',
    id,
    method: 'session/request_permission',
    params: { sessionId: 'sess-1', toolCall, options: GEMINI_OPTIONS },
  });

/** A real host and phone; the editor's and the agent's sides are the lines the proxy writes to each. */
async function setup(options: { hostUrl?: string; forms?: boolean } = {}) {
  const host = await startTestHost();
  const remote = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
  const toEditor: string[] = [];
  const toAgent: string[] = [];
  const logs: string[] = [];
  const proxy = createAcpProxy({
    runtime: runtimeClientProvider({ url: options.hostUrl ?? host.url, token: TEST_TOKEN }),
    toEditor: (text) => toEditor.push(String(text)),
    toAgent: (text) => toAgent.push(String(text)),
    log: (text) => logs.push(text),
    command: '/usr/local/bin/gemini',
  });
  opened.push({ proxy, remote });
  // The editor starts a session as Zed does.
  proxy.fromEditor(
    line({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: 1,
        clientCapabilities: { fs: { readTextFile: true }, ...(options.forms ? { elicitation: { form: {} } } : {}) },
      },
    }),
  );
  proxy.fromAgent(
    line({
      jsonrpc: '2.0',
      id: 0,
      result: { protocolVersion: 1, agentInfo: { name: 'gemini-cli', title: 'Gemini CLI', version: '0.61.0' } },
    }),
  );
  proxy.fromEditor(
    line({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/home/ada/shop', mcpServers: [] } }),
  );
  proxy.fromAgent(line({ jsonrpc: '2.0', id: 1, result: { sessionId: 'sess-1' } }));
  const permission = (id: number | string, command = 'rm -rf build') =>
    proxy.fromAgent(
      permissionRequest(id, { toolCallId: `call-${id}`, title: command, kind: 'execute', status: 'pending' }),
    );
  return { host, remote, proxy, toEditor, toAgent, logs, permission };
}

const parsed = (lines: string[]) => lines.map((text) => JSON.parse(text) as Record<string, unknown>);

describe('[R18.37][R18.38] askaway acp between an editor and an ACP agent', () => {
  it('[R18.37] relays every line unchanged both ways, the ones it cannot read too', async () => {
    const { proxy, toEditor, toAgent } = await setup();
    const odd = ['not json at all', '{"jsonrpc":"2.0","method":"session/update","params":{"x":1}}', '[1,2', ''];
    for (const text of odd) proxy.fromAgent(text);
    for (const text of odd) proxy.fromEditor(text);
    expect(toEditor.slice(-4)).toEqual(odd);
    expect(toAgent.slice(-4)).toEqual(odd);
    // The handshake went through as it was sent, byte for byte.
    expect(toAgent[0]).toContain('"method":"initialize"');
    expect(toEditor[0]).toContain('"agentInfo"');
  });

  it('[R18.37][R18.38] phone first: the agent gets the option chosen, the editor a cancel and its tool call moved on, its late reply is dropped', async () => {
    const { remote, proxy, toEditor, toAgent, permission } = await setup();
    permission(7);
    // The editor got the request at once, unchanged.
    expect(parsed(toEditor).at(-1)).toMatchObject({ id: 7, method: 'session/request_permission' });
    const record = await remote.next((r) => r.requestId.startsWith('acp-'));
    expect(record).toMatchObject({
      kind: 'approval',
      agent: { kind: 'acp', name: 'Gemini CLI', version: '0.61.0' },
      sessionId: 'sess-1',
      context: { cwd: '/home/ada/shop', projectName: 'shop' },
      input: {
        subject: 'command',
        command: 'rm -rf build',
        choices: [
          { id: 'proceed_always', label: 'Always Allow', effect: 'allow-always' },
          { id: 'proceed_once', label: 'Allow', effect: 'allow' },
          { id: 'cancel', label: 'Reject', effect: 'deny' },
        ],
      },
    });
    await remote.respond(record.requestId, { action: 'accept', content: { choice: 'proceed_once' } });
    await vi.waitFor(() =>
      expect(parsed(toAgent).at(-1)).toEqual({
        jsonrpc: '2.0',
        id: 7,
        result: { outcome: { outcome: 'selected', optionId: 'proceed_once' } },
      }),
    );
    expect(parsed(toEditor).slice(-2)).toEqual([
      { jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 7 } },
      {
        jsonrpc: '2.0',
        method: 'session/update',
        params: {
          sessionId: 'sess-1',
          update: { sessionUpdate: 'tool_call_update', toolCallId: 'call-7', status: 'in_progress' },
        },
      },
    ]);
    // An editor honouring the cancel answers `cancelled`; one ignoring it answers late: neither reaches the agent.
    const sent = toAgent.length;
    proxy.fromEditor(line({ jsonrpc: '2.0', id: 7, result: { outcome: { outcome: 'cancelled' } } }));
    expect(toAgent.length).toBe(sent);
    expect(remote.withdrawn(record.requestId)).toBeUndefined();
  });

  it("[R18.38] a Deny from the phone picks the agent's reject and closes the editor's tool call as failed", async () => {
    const { remote, toEditor, toAgent, permission } = await setup();
    permission('req-a');
    const record = await remote.next((r) => r.requestId.startsWith('acp-'));
    await remote.respond(record.requestId, { action: 'decline' });
    await vi.waitFor(() =>
      expect(parsed(toAgent).at(-1)).toEqual({
        jsonrpc: '2.0',
        id: 'req-a',
        result: { outcome: { outcome: 'selected', optionId: 'cancel' } },
      }),
    );
    expect(parsed(toEditor).at(-1)).toMatchObject({
      method: 'session/update',
      params: {
        update: {
          status: 'failed',
          content: [{ type: 'content', content: { type: 'text', text: ANSWERED_ON_PHONE_TEXT } }],
        },
      },
    });
  });

  it('[R18.39] editor first: its reply goes to the agent and the card leaves as answered in the editor', async () => {
    const { remote, proxy, toAgent, permission } = await setup();
    permission(3);
    const record = await remote.next((r) => r.requestId.startsWith('acp-'));
    const reply = line({
      jsonrpc: '2.0',
      id: 3,
      result: { outcome: { outcome: 'selected', optionId: 'proceed_always' } },
    });
    proxy.fromEditor(reply);
    expect(toAgent.at(-1)).toBe(reply);
    await vi.waitFor(() =>
      expect(remote.withdrawn(record.requestId)).toEqual({
        reason: ANSWERED_IN_EDITOR_REASON,
        terminalAnswer: { where: 'editor', response: { action: 'accept', content: { choice: 'proceed_always' } } },
      }),
    );
    expect(proxy.open()).toEqual([]);
  });

  it("[R18.39] the agent's $/cancel_request, the editor's session/cancel and the agent exiting withdraw their cards with the reason", async () => {
    const { remote, proxy, permission } = await setup();
    permission(1);
    permission(2);
    permission(3);
    const cards = await Promise.all(['1', '2', '3'].map((id) => remote.next((r) => r.requestId.endsWith(`-${id}`))));
    proxy.fromAgent(line({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 1 } }));
    await vi.waitFor(() => expect(remote.withdrawn(cards[0]?.requestId ?? '')?.reason).toBe(AGENT_CANCELLED_REASON));
    proxy.fromEditor(line({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 'sess-1' } }));
    await vi.waitFor(() => expect(remote.withdrawn(cards[1]?.requestId ?? '')?.reason).toBe(TURN_CANCELLED_REASON));
    expect(remote.withdrawn(cards[2]?.requestId ?? '')?.reason).toBe(TURN_CANCELLED_REASON);
    permission(4);
    const last = await remote.next((r) => r.requestId.endsWith('-4'));
    await proxy.close();
    await vi.waitFor(() => expect(remote.withdrawn(last.requestId)?.reason).toBe(AGENT_EXITED_REASON));
  });

  it('[R18.38] a form the agent sends, when the editor shows forms, goes to the phone and its values back to the agent', async () => {
    const { remote, proxy, toAgent } = await setup({ forms: true });
    proxy.fromAgent(
      line({
        jsonrpc: '2.0',
        id: 9,
        method: 'elicitation/create',
        params: {
          mode: 'form',
          sessionId: 'sess-1',
          message: 'Which branch?',
          requestedSchema: { type: 'object', properties: { branch: { type: 'string' } }, required: ['branch'] },
        },
      }),
    );
    const record = await remote.next((r) => r.requestId.startsWith('acp-'));
    expect(record).toMatchObject({ kind: 'form', input: { message: 'Which branch?', fields: [{ name: 'branch' }] } });
    await remote.respond(record.requestId, { action: 'accept', content: { values: { branch: 'main' } } });
    await vi.waitFor(() =>
      expect(parsed(toAgent).at(-1)).toEqual({
        jsonrpc: '2.0',
        id: 9,
        result: { action: 'accept', content: { branch: 'main' } },
      }),
    );
  });

  it('[R18.40] with the hub unreachable the editor sees exactly what the agent sent, and answers it itself', async () => {
    const { proxy, toEditor, toAgent, permission } = await setup({ hostUrl: 'http://127.0.0.1:9' });
    permission(5);
    expect(parsed(toEditor).at(-1)).toMatchObject({ id: 5, method: 'session/request_permission' });
    // The card waits for a hub to show on (R8.1); the editor's dialog does not wait for it.
    expect(proxy.open()).toEqual(['5']);
    const reply = line({
      jsonrpc: '2.0',
      id: 5,
      result: { outcome: { outcome: 'selected', optionId: 'proceed_once' } },
    });
    proxy.fromEditor(reply);
    expect(toAgent.at(-1)).toBe(reply);
    expect(proxy.open()).toEqual([]);
  });
});

describe('[R12.19] what the ACP proxy keeps is bounded', () => {
  it('[R12.19] agent requests the editor never answers: past the bound the oldest are forgotten, said once', async () => {
    const { proxy, toEditor, logs } = await setup();
    for (let id = 100; id < 100 + ACP_REMEMBERED_MAX + 50; id += 1)
      proxy.fromAgent(line({ jsonrpc: '2.0', id, method: 'fs/read_text_file', params: { path: `/tmp/${id}` } }));
    expect(toEditor.filter((text) => text.includes('fs/read_text_file'))).toHaveLength(ACP_REMEMBERED_MAX + 50);
    expect(logs.filter((text) => text.includes('without a reply'))).toHaveLength(1);
    // Editor sessions and watched requests too.
    for (let id = 10; id < 10 + ACP_REMEMBERED_MAX + 50; id += 1)
      proxy.fromEditor(line({ jsonrpc: '2.0', id, method: 'session/new', params: { cwd: `/home/ada/p${id}` } }));
    expect(logs.filter((text) => text.includes('editor requests watched'))).toHaveLength(1);
  });

  it('[R12.19] prompts on the phone are bounded in bytes too: past ACP_PROMPTS_HELD_BYTES_MAX the rest stay in the editor', async () => {
    const { remote, proxy, toEditor, logs } = await setup();
    const big = 'x'.repeat(1024 * 1024 - 2_000);
    const count = Math.floor(ACP_PROMPTS_HELD_BYTES_MAX / (1024 * 1024)) + 2;
    for (let id = 1; id <= count; id += 1)
      proxy.fromAgent(
        permissionRequest(id, { toolCallId: `big-${id}`, title: 'big', kind: 'other', rawInput: { big } }),
      );
    expect(toEditor.filter((text) => text.includes('"big-'))).toHaveLength(count);
    await vi.waitFor(() =>
      expect(remote.pending().filter((r) => r.toolUseId?.startsWith('big-'))).toHaveLength(count - 2),
    );
    expect(proxy.open()).toHaveLength(count - 2);
    expect(logs.filter((text) => text.includes('stay in the editor'))).toHaveLength(1);
  });
});

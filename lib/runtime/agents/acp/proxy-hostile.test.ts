// What arrives from either end of `askaway acp` is held to the host's limits (R12.18, R12.19, R12.21): a real
// proxy process between the test (the editor) and a fake agent, a real host, and a phone.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Host } from '../../../host';
import { pairDevice } from '../../../host/test-support/devices';
import { closeAllHosts, startTestHost } from '../../../host/test-support/test-host';
import { connectScriptedRemote, type ScriptedRemote } from '../../test-support/scripted-remote';
import { ACP_LINE_READ_MAX } from './proxy';
import { startAcpProcess, waitUntil, type AcpProcess, type AcpProcessOptions } from './test-support/acp-process';
import { ANSWERED_IN_EDITOR_REASON } from './terminal-answer';

let host: Host;
let remote: ScriptedRemote;
const started: AcpProcess[] = [];
const MiB = 1024 * 1024;

beforeAll(async () => {
  host = await startTestHost();
  remote = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
});
afterEach(() => {
  for (const proxy of started.splice(0)) proxy.kill();
});
afterAll(async () => {
  remote.close();
  await closeAllHosts();
});

async function start(options: Omit<AcpProcessOptions, 'hub'> = {}): Promise<AcpProcess> {
  const proxy = await startAcpProcess({ hub: { url: host.url, token: host.token }, ...options });
  started.push(proxy);
  return proxy;
}

const OPTIONS = [
  { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
];

const permission = (id: number | string, toolCallId: string, rawInput: unknown = { command: 'make' }) =>
  `${JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'session/request_permission',
    params: {
      sessionId: 'sess-1',
      toolCall: { toolCallId, title: `run ${toolCallId}`, kind: 'other', status: 'pending', rawInput },
      options: OPTIONS,
    },
  })}\n`;

/** A value nested `depth` arrays deep, as text (building it as an object would take the test's stack). */
const deep = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
/** Tool arguments and a form schema `depth` objects deep, as text. */
const deepArguments = (depth: number) => `${'{"path":'.repeat(depth)}"x"${'}'.repeat(depth)}`;
const deepSchema = (depth: number) =>
  `${'{"type":"object","properties":{"a":'.repeat(depth)}{"type":"string"}${'}}'.repeat(depth)}`;

const reply = (id: number | string, outcome: Record<string, unknown>) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, result: { outcome } })}\n`;

const agentGot = (proxy: AcpProcess, text: string) => proxy.agentRecord().includes(Buffer.from(text));
const cardFor = (toolCallId: string) => (record: { toolUseId?: string }) => record.toolUseId === toolCallId;

describe('[R12.21] askaway acp: every request a new interaction', () => {
  it('[R12.21] an id the agent uses again after the phone answered gets a new card, and the editor’s reply to it reaches the agent', async () => {
    const proxy = await start();
    proxy.agentWrites(permission(5, 'call-first'));
    const first = await remote.next(cardFor('call-first'));
    await remote.respond(first.requestId, { action: 'accept', content: { choice: 'proceed_once' } });
    await waitUntil('the agent got the phone’s answer', () =>
      agentGot(proxy, reply(5, { outcome: 'selected', optionId: 'proceed_once' })),
    );
    // The editor honours the cancel: its `cancelled` goes nowhere.
    await waitUntil('the editor got the cancel', () =>
      proxy.messages().some((message) => message.method === '$/cancel_request'),
    );
    proxy.write(reply(5, { outcome: 'cancelled' }));
    // The agent asks again with the same id: a new card, not the old answer.
    proxy.agentWrites(permission(5, 'call-second'));
    const second = await remote.next(cardFor('call-second'));
    expect(second.requestId).not.toBe(first.requestId);
    const reject = reply(5, { outcome: 'selected', optionId: 'cancel' });
    proxy.write(reject);
    await waitUntil('the agent got the editor’s reject', () => agentGot(proxy, reject));
    await waitUntil('the card left as answered in the editor', () => remote.withdrawn(second.requestId) !== undefined);
    expect(remote.withdrawn(second.requestId)?.reason).toBe(ANSWERED_IN_EDITOR_REASON);
    const record = proxy.agentRecord().toString('utf8');
    expect(record).not.toContain('"outcome":"cancelled"');
    // The old answer went to the agent once, for the first request only.
    expect(record.split('"optionId":"proceed_once"}}}').length - 1).toBe(1);
  });

  it('[R12.21] an editor that never replied to the request the phone answered still gets its reply to the next one with that id through', async () => {
    const proxy = await start();
    proxy.agentWrites(permission(6, 'call-silent'));
    const first = await remote.next(cardFor('call-silent'));
    await remote.respond(first.requestId, { action: 'accept', content: { choice: 'proceed_once' } });
    await waitUntil('the agent got the phone’s answer', () =>
      agentGot(proxy, reply(6, { outcome: 'selected', optionId: 'proceed_once' })),
    );
    proxy.agentWrites(permission(6, 'call-after-silent'));
    const second = await remote.next(cardFor('call-after-silent'));
    const allow = reply(6, { outcome: 'selected', optionId: 'cancel' });
    proxy.write(allow);
    await waitUntil('the agent got the editor’s answer', () => agentGot(proxy, allow));
    await waitUntil('the card left', () => remote.withdrawn(second.requestId) !== undefined);
  });
});

describe('[R12.21] askaway acp relays bytes exactly', () => {
  it('[R12.21] a bare \\r and bytes that are not UTF-8 pass both ways as they came', async () => {
    const proxy = await start();
    const odd = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","method":"session/update","params":{"text":"a\rb'),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82]),
      Buffer.from('"}}\r\n'),
      Buffer.from('half\rline\n'),
    ]);
    proxy.agentWrites(odd);
    await waitUntil('the editor got the bytes', () => proxy.received().includes(odd));
    proxy.write(odd);
    await waitUntil('the agent got the bytes', () => proxy.agentRecord().includes(odd));
  });

  it('[R12.21] a line over the read limit streams through both ways before it ends, and the next line after it', async () => {
    const proxy = await start();
    const head = Buffer.from(`{"jsonrpc":"2.0","method":"session/update","params":{"text":"${'y'.repeat(3 * MiB)}`);
    expect(head.length).toBeGreaterThan(ACP_LINE_READ_MAX);
    proxy.agentWrites(head);
    // Half a line is already with the editor: the proxy does not hold it whole.
    await waitUntil('the editor got the start of the long line', () => proxy.receivedBytes() > 2 * MiB);
    proxy.agentWrites('"}}\n{"jsonrpc":"2.0","method":"session/update","params":{"after":1}}\n');
    await waitUntil('the editor got the rest', () =>
      proxy.messages().some((message) => JSON.stringify(message).includes('"after":1')),
    );
    expect(proxy.received().includes(Buffer.concat([head, Buffer.from('"}}\n')]))).toBe(true);
    // From the editor too.
    proxy.write(head);
    await waitUntil('the agent got the start of the long line', () => proxy.agentRecord().length > 2 * MiB);
    proxy.write('"}}\n');
    await waitUntil('the agent got all of it', () =>
      proxy.agentRecord().includes(Buffer.concat([head, Buffer.from('"}}\n')])),
    );
    expect(proxy.stderr()).toContain('relayed unread');
  });

  it('[R12.21] 200 MB from the agent while the editor does not read: the proxy pauses the agent and its memory stays flat', async () => {
    const proxy = await start({ keep: false });
    const total = 200 * MiB;
    const baseline = proxy.rssBytes();
    const before = proxy.receivedBytes();
    proxy.pauseReading();
    proxy.send({ jsonrpc: '2.0', method: '_fake/flood', params: { total, line: 64 * 1024 } });
    let peak = baseline;
    let lastWrote = -1;
    let still = 0;
    // Until the agent is done, or it has written nothing more for 20 looks in a row (the proxy paused it).
    await waitUntil(
      'the agent finished or the proxy stopped reading',
      () => {
        peak = Math.max(peak, proxy.rssBytes());
        const wrote = proxy.agentWroteBytes();
        still = wrote === lastWrote ? still + 1 : 0;
        lastWrote = wrote;
        return proxy.stderr().includes('fake-acp flood done') || still >= 20;
      },
      60_000,
    );
    expect(proxy.stderr()).not.toContain('fake-acp flood done');
    expect(peak - baseline).toBeLessThan(64 * MiB);
    // The editor reads again: everything arrives, and the memory stays flat all the way.
    proxy.resumeReading();
    await waitUntil(
      'the editor read all of it',
      () => {
        peak = Math.max(peak, proxy.rssBytes());
        return proxy.receivedBytes() - before >= total;
      },
      120_000,
    );
    expect(peak - baseline).toBeLessThan(64 * MiB);
    expect(proxy.alive()).toBe(true);
  }, 180_000);
});

describe('[R12.18] askaway acp reads only messages within the bridge limits', () => {
  it('[R12.18] tool arguments and a form schema 5,000 deep stay in the editor, relayed, and the proxy goes on', async () => {
    const proxy = await start({ elicitation: { form: {} } });
    const deepPermission = permission('deep', 'call-deep', '@').replace('"@"', deepArguments(5_000));
    const deepForm = `${JSON.stringify({
      jsonrpc: '2.0',
      id: 'deep-form',
      method: 'elicitation/create',
      params: { mode: 'form', sessionId: 'sess-1', message: 'Deep?', requestedSchema: '@' },
    }).replace('"@"', deepSchema(5_000))}\n`;
    proxy.agentWrites(deepPermission + deepForm);
    await waitUntil('the editor got both', () => proxy.received().includes(Buffer.from(deepPermission + deepForm)));
    // From the editor too: a reply and a request 5,000 deep reach the agent as they were.
    const deepReply = `{"jsonrpc":"2.0","id":"deep","result":{"outcome":${deep(5_000)}}}\n`;
    const deepRequest = `{"jsonrpc":"2.0","id":9,"method":"session/prompt","params":${deep(5_000)}}\n`;
    proxy.write(deepReply + deepRequest);
    await waitUntil('the agent got both', () => agentGot(proxy, deepReply + deepRequest));
    // The proxy is up and carries the next prompt; the deep ones never reached the phone.
    proxy.agentWrites(permission(10, 'call-after-deep'));
    await remote.next(cardFor('call-after-deep'));
    expect(remote.pending().filter(cardFor('call-deep'))).toEqual([]);
    expect(remote.pending().filter((record) => record.kind === 'form')).toEqual([]);
    expect(proxy.alive()).toBe(true);
    // Nothing went wrong unseen (the process-wide last resort had nothing to catch), and the log said it once a side.
    expect(proxy.stderr()).not.toContain('kept serving after');
    expect(proxy.stderr().match(/nests deeper than/g)?.length).toBe(2);
  });
});

describe('[R12.21] askaway acp carries only the elicitation modes the editor advertised', () => {
  it('[R12.21] a URL elicitation stays in the editor that offered only forms; a form goes to the phone', async () => {
    const proxy = await start({ elicitation: { form: {} } });
    const elicit = (id: string, params: Record<string, unknown>) =>
      `${JSON.stringify({ jsonrpc: '2.0', id, method: 'elicitation/create', params: { sessionId: 'sess-1', ...params } })}\n`;
    proxy.agentWrites(
      elicit('url-1', { mode: 'url', message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' }) +
        elicit('form-1', {
          mode: 'form',
          message: 'Which branch?',
          requestedSchema: { type: 'object', properties: { branch: { type: 'string' } } },
        }),
    );
    const form = await remote.next((record) => record.kind === 'form' && record.requestId.endsWith('"form-1"'));
    expect(form.input).toMatchObject({ mode: 'form' });
    expect(remote.pending().filter((record) => record.requestId.endsWith('"url-1"'))).toEqual([]);
    expect(proxy.messages().some((message) => message.id === 'url-1')).toBe(true);
    expect(proxy.stderr()).toContain('mode "url"');
  });
});

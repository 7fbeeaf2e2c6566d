// A Codex daemon sending what no real one sends (R12.18): frames nested thousands deep, in a server request, a
// form's schema, a notification, an answer. The hub stays up, says so once, and carries the next prompt.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BRIDGE_FRAME_MAX_BYTES } from '../../../contracts';
import { closeAllHosts } from '../../../host/test-support/test-host';
import { CODEX_PROMPT_METHODS } from './protocol';
import { fileChangeApprovalParams, requestUserInputParams } from './test-fixtures';
import { bridgeJoined, bridgeRig, type BridgeRig } from './test-support/bridge-rig';

const THREAD = '01a23100-0000-7000-8000-0000000000d1';
const OTHER_THREAD = '01a23100-0000-7000-8000-0000000000d2';
/** As deep as the review's repro: JSON.stringify overflows the stack well before this. */
const DEPTH = 6_000;
const REFUSED = /refused a message from the daemon that nests deeper than 32 levels/;

/** JSON text nested `DEPTH` objects deep around `leaf`, built as text (JSON.stringify would overflow on it here too). */
const deep = (leaf = '1') => `${'{"a":'.repeat(DEPTH)}${leaf}${'}'.repeat(DEPTH)}`;

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await closeAllHosts();
});

async function rig(): Promise<BridgeRig> {
  const setup = await bridgeRig(cleanups, [
    { id: THREAD, cwd: '/work/project', name: 'Widget', agentMessage: 'Two quick choices.' },
  ]);
  await bridgeJoined(setup);
  return setup;
}

/** An MCP tool-call approval as Codex relays it, with `toolParams` as its tool's input. */
const toolApprovalFrame = (id: number, toolParams: string) =>
  `{"id":${id},"method":"${CODEX_PROMPT_METHODS.elicitation}","params":{"threadId":"${THREAD}","turnId":"t1",` +
  `"serverName":"files","mode":"form","message":"Allow?","requestedSchema":{"type":"object","properties":{}},` +
  `"_meta":{"codex_approval_kind":"mcp_tool_call","tool_name":"write","tool_params":${toolParams}}}}`;

/** An MCP server's form whose one field has `type` as its type. */
const formFrame = (id: number, type: string) =>
  `{"id":${id},"method":"${CODEX_PROMPT_METHODS.elicitation}","params":{"threadId":"${THREAD}","serverName":"forms",` +
  `"mode":"form","message":"Fill in","requestedSchema":{"type":"object","properties":{"name":{"type":${type}}}}}}`;

/** The hub answers, and a plain question after the hostile frames still reaches the phone, alone. */
async function stillServes(setup: BridgeRig, id: number) {
  const healthz = await fetch(`${setup.host.url}/healthz`);
  expect(healthz.status).toBe(200);
  setup.daemon.ask(THREAD, id, CODEX_PROMPT_METHODS.question, requestUserInputParams);
  const card = await setup.remote.next((record) => record.sessionId === THREAD);
  expect(card).toMatchObject({ kind: 'question' });
  expect(setup.remote.pending().filter((record) => record.sessionId === THREAD)).toHaveLength(1);
  await setup.remote.respond(card.requestId, { action: 'accept', content: { answers: { 'Which size?': 'Small' } } });
  await vi.waitFor(() => expect(setup.daemon.responsesTo(id)).toHaveLength(1));
  return card;
}

describe('[R12.18] a Codex daemon sending frames nested thousands deep', () => {
  it('[R12.18] an MCP tool approval whose tool_params nest 6,000 deep stays in Codex’s terminal, said once; the hub carries the next prompt', async () => {
    const setup = await rig();
    setup.daemon.sendRaw(toolApprovalFrame(7, deep()));
    setup.daemon.sendRaw(toolApprovalFrame(8, `[${deep()}]`));
    await stillServes(setup, 50);
    expect(setup.logs.filter((line) => REFUSED.test(line))).toHaveLength(1);
    expect(setup.daemon.responsesTo(7)).toEqual([]);
    expect(setup.daemon.responsesTo(8)).toEqual([]);
  });

  it('[R12.18] a form whose field schema nests 6,000 deep stays in Codex’s terminal, said once; the hub carries the next prompt', async () => {
    const setup = await rig();
    setup.daemon.sendRaw(formFrame(9, deep()));
    setup.daemon.sendRaw(formFrame(10, deep('"string"')));
    await stillServes(setup, 51);
    expect(setup.logs.filter((line) => REFUSED.test(line))).toHaveLength(1);
    expect(setup.daemon.responsesTo(9)).toEqual([]);
    expect(setup.daemon.responsesTo(10)).toEqual([]);
  });

  it('[R12.18] deep notifications and a deep answer are refused unread with one log line; the prompt asked meanwhile still comes', async () => {
    const setup = await rig();
    setup.daemon.sendRaw(
      `{"method":"thread/started","params":{"thread":{"id":"${OTHER_THREAD}","ephemeral":false,"extra":${deep()}}}}`,
    );
    setup.daemon.sendRaw(
      `{"method":"item/started","params":{"threadId":"${THREAD}","turnId":"t1","item":{"type":"fileChange",` +
        `"id":"call_1","changes":[{"path":"a.txt","kind":${deep()},"diff":""}]}}}`,
    );
    setup.daemon.sendRaw(`{"method":"serverRequest/resolved","params":${deep()}}`);
    // What Codex said before asking comes back nested 6,000 deep: the card comes without it, at once.
    setup.daemon.answerRaw('thread/items/list', (id) => `{"id":${id},"result":{"data":[${deep()}]}}`);
    const card = await stillServes(setup, 52);
    expect(card.context?.agentMessage).toBeUndefined();
    expect(setup.logs.filter((line) => REFUSED.test(line))).toHaveLength(1);
    expect(setup.logs).toContainEqual(expect.stringMatching(/thread\/items\/list: the daemon's answer was refused/));
    // The thread the refused notification announced was never learned, nor joined.
    expect(setup.bridge.status()[0]).toMatchObject({ state: 'attached', threads: 1 });
    expect(setup.daemon.received.filter((message) => message.method === 'thread/resume')).toHaveLength(1);
  });
});

describe('[R12.19] a Codex daemon sending a frame past the bound', () => {
  it('[R12.19] a file change past 16 MiB is refused unread with its connection; the bridge attaches again and carries the next prompt', async () => {
    const setup = await rig();
    const diff = 'd'.repeat(BRIDGE_FRAME_MAX_BYTES);
    setup.daemon.sendRaw(
      `{"method":"item/started","params":{"threadId":"${THREAD}","turnId":"t1","item":{"type":"fileChange",` +
        `"id":"call_big","changes":[{"path":"a.txt","kind":{"type":"update"},"diff":"${diff}"}]}}}`,
    );
    await vi.waitFor(() =>
      expect(setup.logs).toContainEqual(expect.stringMatching(/detached: Max payload size exceeded/)),
    );
    await vi.waitFor(() => {
      expect(setup.bridge.status()[0]).toMatchObject({ state: 'attached', threads: 1 });
      expect(setup.daemon.clients()).toBe(1);
    });
    await stillServes(setup, 53);
  });

  it('[R12.19] a thread whose turns come back past 16 MiB costs one connection: its file-change approvals come without a diff, and its turns are not asked again', async () => {
    const setup = await rig();
    const pad = 'x'.repeat(BRIDGE_FRAME_MAX_BYTES);
    setup.daemon.answerRaw('thread/resume', (id, params) =>
      params.excludeTurns === false
        ? `{"id":${id},"result":{"thread":{"id":"${THREAD}","ephemeral":false,"turns":[{"pad":"${pad}"}]}}}`
        : undefined,
    );
    // No item/started before them: the bridge looks for the diffs in the thread's turns.
    setup.daemon.ask(THREAD, 60, CODEX_PROMPT_METHODS.fileChange, fileChangeApprovalParams);
    const first = await setup.remote.next((record) => record.kind === 'approval');
    expect(first.input).not.toHaveProperty('changes');
    await vi.waitFor(() => {
      expect(setup.bridge.status()[0]).toMatchObject({ state: 'attached', threads: 1 });
      expect(setup.daemon.clients()).toBe(1);
    });
    setup.daemon.ask(THREAD, 61, CODEX_PROMPT_METHODS.fileChange, { ...fileChangeApprovalParams, itemId: 'call_2' });
    await setup.remote.next((record) => record.kind === 'approval' && record.requestId !== first.requestId);
    const withTurns = setup.daemon.received.filter(
      (message) =>
        message.method === 'thread/resume' && (message.params as { excludeTurns?: boolean }).excludeTurns === false,
    );
    expect(withTurns).toHaveLength(1);
    expect(setup.logs.filter((line) => line.includes('detached: Max payload size exceeded'))).toHaveLength(1);
  });
});

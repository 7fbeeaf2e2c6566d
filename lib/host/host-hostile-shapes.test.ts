import { io, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  PROTOCOL_VERSION,
  REMOTE_NAMESPACE,
  REMOTE_PROTOCOL_VERSION,
  RUNTIME_NAMESPACE,
  type Snapshot,
} from '../contracts';
import { hubContributions } from '../../bin/commands/hub-contributions';
import { mountAgentBridges } from '../bridges';
import { startPush } from './push';
import { closeAllClients, connectRuntime } from './test-support/clients';
import { pairDevice } from './test-support/devices';
import { permissionRequest, questionRequest } from './test-support/fixtures';
import { deepObjectJson, HOSTILE_SHAPES, rawJson, rawJsonParser } from './test-support/hostile-shapes';
import { joinMachine } from './test-support/machines';
import { closeAllHosts, startTestHost, TEST_TOKEN } from './test-support/test-host';

const RELAXED = { capacity: 100_000, refillPerSecond: 100_000 };
const sockets: Socket[] = [];
const stops: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.disconnect();
  closeAllClients();
  await Promise.all(stops.splice(0).map((stop) => stop()));
  await closeAllHosts();
});

/** A client that can send JSON no JSON.stringify builds (rawJsonParser). */
async function rawClient(url: string, namespace: string, auth: Record<string, unknown>): Promise<Socket> {
  const socket = io(`${url}${namespace}`, {
    auth,
    parser: rawJsonParser,
    // Its own connection: socket.io-client would otherwise share one made earlier, with the standard parser.
    forceNew: true,
    transports: ['websocket'],
    reconnection: false,
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

type Template = (shape: unknown) => unknown;

/** Each runtime message, with the hostile value as the whole payload and in the field it would fill. */
const runtimeMessages: [string, Template[]][] = [
  [
    'announce',
    [
      (shape) => shape,
      (shape) => ({ ...permissionRequest(), input: { blob: shape } }),
      (shape) => ({ ...questionRequest(), context: { agentMessage: shape } }),
    ],
  ],
  ['announce:batch', [(shape) => shape, (shape) => ({ entries: shape })]],
  ['withdraw', [(shape) => shape, (shape) => ({ requestId: 'r', reason: shape })]],
  ['resolution:ack', [(shape) => shape, (shape) => ({ requestId: shape })]],
];

const remoteMessages: [string, Template[]][] = [
  [
    'respond',
    [
      (shape) => shape,
      (shape) => ({
        requestId: 'r',
        clientResponseId: 'c',
        response: { action: 'accept', content: { answers: shape } },
      }),
    ],
  ],
  ['preferences:update', [(shape) => shape, (shape) => ({ askUserQuestionAutoResolutionEnabled: shape })]],
  ['devices:revoke', [(shape) => shape, (shape) => ({ deviceId: shape })]],
  ['device:rename', [(shape) => shape, (shape) => ({ name: shape })]],
  ['machines:revoke', [(shape) => shape, (shape) => ({ machineId: shape })]],
  ['snapshot:get', [(shape) => shape]],
  ['devices:list', [(shape) => shape]],
  ['machines:list', [(shape) => shape]],
  ['push:subscribe', [(shape) => shape, (shape) => ({ subscription: shape })]],
  ['push:ntfy', [(shape) => ({ topicUrl: shape })]],
  ['push:status', [(shape) => shape]],
  ['presence', [(shape) => ({ visible: shape })]],
];

/** Sends every message of `messages` with every hostile shape; returns the error codes of the replies. */
async function sendAll(socket: Socket, messages: [string, Template[]][]): Promise<string[]> {
  const codes: string[] = [];
  for (const [event, templates] of messages) {
    for (const template of templates) {
      for (const shape of HOSTILE_SHAPES) {
        const reply = (await socket.timeout(10_000).emitWithAck(event, template(shape.value()))) as {
          ok: boolean;
          error?: { code: string };
        };
        codes.push(reply.ok ? `${event}: ok` : `${event}: ${reply.error?.code ?? 'no code'} (${shape.name})`);
      }
    }
    // An event the host does not know, and a message whose ack is not a function: nothing to answer, nothing to crash.
    socket.emit('no-such-event', rawJson(deepObjectJson(30_000)));
    socket.emit(event, rawJson(deepObjectJson(30_000)), 'not a function');
  }
  return codes;
}

/** What a message could have changed: the log and what is folded from it (connections come and go meanwhile). */
const stable = ({ seq, pending, history, preferences, devices }: Snapshot) => ({
  seq,
  pending,
  history,
  preferences,
  devices,
});

describe('[R12.5] hostile shapes', () => {
  it('[R12.5] every message of both namespaces, deep, wide, long or many-keyed, from every credential: refused with a reason, the host keeps serving', async () => {
    const host = await startTestHost({ rateLimits: { runtime: RELAXED, remote: RELAXED }, log: () => undefined });
    const push = await startPush(host);
    stops.push(() => push.close());
    const machine = await joinMachine(host, 'laptop');
    const device = await pairDevice(host);
    const asker = await connectRuntime(host.url, TEST_TOKEN, 'witness');
    const waiting = questionRequest();
    await asker.socket.emitWithAck('announce', waiting);
    const before = stable(host.registry.snapshot());

    const runtimeAuth = (token: string) => ({ token, protocolVersion: PROTOCOL_VERSION, runtimeId: 'hostile' });
    const codes = [
      ...(await sendAll(await rawClient(host.url, RUNTIME_NAMESPACE, runtimeAuth(TEST_TOKEN)), runtimeMessages)),
      ...(await sendAll(
        await rawClient(host.url, RUNTIME_NAMESPACE, runtimeAuth(machine.credential)),
        runtimeMessages,
      )),
      ...(await sendAll(
        await rawClient(host.url, REMOTE_NAMESPACE, {
          credential: device.credential,
          protocolVersion: REMOTE_PROTOCOL_VERSION,
        }),
        remoteMessages,
      )),
    ];

    expect(codes.length).toBe(288);
    // Queries answer whatever comes before their ack; nothing else was accepted, and nothing failed inside.
    for (const code of codes)
      expect(code).toMatch(/^(\S+: invalid-message \(.+\)|(snapshot:get|devices:list|machines:list|push:status): ok)$/);
    expect(stable(host.registry.snapshot())).toEqual(before);
    // Still serving: the waiting question is answered and its runtime hears of it.
    const remote = await rawClient(host.url, REMOTE_NAMESPACE, {
      credential: device.credential,
      protocolVersion: REMOTE_PROTOCOL_VERSION,
    });
    const answer = await remote.emitWithAck('respond', {
      requestId: waiting.requestId,
      clientResponseId: 'after-the-storm',
      response: { action: 'accept', content: { answers: { 'Which database?': 'SQLite' } } },
    });
    expect(answer).toMatchObject({ ok: true, status: 'accepted' });
    await expect.poll(() => asker.resolved.length).toBe(1);
    // Hundreds of hostile messages on a 2-core machine beside the build: 20 s was too close.
  }, 60_000);

  it('[R12.5] a handshake nested 30,000 levels deep is refused, and the host accepts the next one', async () => {
    const host = await startTestHost({ log: () => undefined });
    const refusal = await new Promise<unknown>((resolve) => {
      const socket = io(`${host.url}${RUNTIME_NAMESPACE}`, {
        auth: { token: TEST_TOKEN, protocolVersion: PROTOCOL_VERSION, runtimeId: rawJson(deepObjectJson(30_000)) },
        parser: rawJsonParser,
        forceNew: true,
        transports: ['websocket'],
        reconnection: false,
      });
      sockets.push(socket);
      socket.once('connect', () => resolve('connected'));
      socket.once('connect_error', (error: Error & { data?: unknown }) => resolve(error.data ?? error.message));
    });
    // The handshake's auth travels as JSON of its own, which the client here builds with JSON.stringify:
    // a placeholder that is not replaced is an ordinary (invalid) runtime id, refused by the schema.
    expect(refusal).toMatchObject({ code: 'invalid-message' });
    await expect(connectRuntime(host.url, TEST_TOKEN)).resolves.toBeDefined();
  });

  it('[R12.5] every JSON endpoint refuses a body 30,000 levels deep with a 4xx and keeps serving', async () => {
    const host = await startTestHost({ log: () => undefined });
    // As `askaway start` mounts them: `/hooks/claude-code` is Claude Code's (R18.29).
    const bridges = mountAgentBridges(host, { contributions: hubContributions({ codexHomes: [] }) });
    stops.push(() => bridges.close());
    const machine = await joinMachine(host, 'laptop');
    for (const token of [TEST_TOKEN, machine.credential]) {
      for (const path of ['/hooks/claude-code', '/mcp', '/api/pair', '/api/join']) {
        const response = await fetch(`${host.url}${path}`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${token}`,
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
          },
          body: deepObjectJson(30_000),
        });
        expect(response.status, path).toBeGreaterThanOrEqual(400);
        expect(response.status, path).toBeLessThan(500);
      }
    }
    expect((await fetch(`${host.url}/healthz`)).status).toBe(200);
  });

  it('[R12.5] whatever a handler throws becomes an error reply and a log line naming the message and the caller', async () => {
    const lines: string[] = [];
    const host = await startTestHost({ log: (line) => lines.push(line) });
    const machine = await joinMachine(host, 'laptop');
    const runtime = await connectRuntime(host.url, machine.credential);
    const announce = vi.spyOn(host.registry, 'announce').mockImplementation(() => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    try {
      expect(await runtime.socket.emitWithAck('announce', questionRequest())).toEqual({
        ok: false,
        error: { code: 'internal', message: 'The host could not process this message' },
      });
    } finally {
      announce.mockRestore();
    }
    expect(lines.join('\n')).toMatch(
      /could not process 'announce' from machine laptop: RangeError: Maximum call stack/,
    );
    // The same connection goes on.
    expect(await runtime.socket.emitWithAck('announce', questionRequest())).toMatchObject({ ok: true });
  });
});

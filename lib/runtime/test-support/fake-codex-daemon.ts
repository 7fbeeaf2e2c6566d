import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A stand-in for Codex 0.171's shared daemon, for the bridge's tests: a WebSocket server on a Unix socket
 * under the temp dir, linked from `$CODEX_HOME/app-server-control/app-server-control.sock` as Codex links
 * it, with a `daemon.pid`. It answers what the bridge asks (initialize, thread/loaded/list, thread/read,
 * thread/resume) from its threads, re-sends a thread's pending server requests on resume as Codex does,
 * and records every message the bridge sends.
 */
export interface FakeCodexDaemon {
  codexHome: string;
  /** Messages the bridge sent, newest last. */
  received: Record<string, unknown>[];
  /** Responses the bridge sent to server request `id`. */
  responsesTo(id: number | string): unknown[];
  clients(): number;
  addThread(thread: FakeThread): void;
  /** Sends a server request to every client that joined the thread (and keeps it pending until answered). */
  ask(threadId: string, id: number, method: string, params: Record<string, unknown>): void;
  /** Marks a request settled elsewhere (the TUI): `serverRequest/resolved` to every client. */
  resolveElsewhere(threadId: string, id: number): void;
  notify(method: string, params: unknown): void;
  /**
   * Sends `text` as one frame to every client, unchanged: a hostile daemon's frames (nested thousands deep,
   * written as text since JSON.stringify would overflow on them here too).
   */
  sendRaw(text: string): void;
  /**
   * From now on answers the bridge's `method` requests with the frame `frame(id, params)` returns, unchanged
   * (undefined: the usual answer).
   */
  answerRaw(method: string, frame: (id: number, params: Record<string, unknown>) => string | undefined): void;
  /**
   * A turn starts on the thread as if typed in the TUI: the thread turns active, and its joined clients get
   * `turn/started`. Returns the turn's id.
   */
  startTurn(threadId: string, turnId?: string): string;
  /** The thread's running turn ends: `turn/completed` to its joined clients, the thread idle (systemError if failed). */
  completeTurn(threadId: string, end: FakeTurnEnd): void;
  /** The texts other clients sent with `turn/start`, per thread, and whether each started a turn or joined one. */
  turnStarts: { threadId: string; text: string; turnId: string; steered: boolean }[];
  /** Drops every connection but keeps running (and keeps its pending requests). */
  dropClients(): void;
  /** Stops the server; with `dead`, daemon.pid names a process that no longer runs. */
  stop(options?: { dead?: boolean }): Promise<void>;
  /** Starts again on the same home as a new daemon process (a new daemon.pid, no pending requests). */
  restart(): Promise<void>;
  remove(): Promise<void>;
}

export interface FakeThread {
  id: string;
  ephemeral?: boolean;
  cwd?: string;
  name?: string;
  /** What Codex said in the turn before asking (`thread/items/list`). */
  agentMessage?: string;
  /** `thread/resume` fails with "no rollout found" this many times first. */
  noRolloutTimes?: number;
  status?: { type: string; activeFlags?: string[] };
  /** Set for a subagent's thread. */
  parentThreadId?: string;
  /** Its turns, oldest first (`thread/turns/list`). */
  turns?: FakeTurn[];
  /** Its goal (`thread/goal/get`): while `active`, Codex starts the next turn itself. */
  goal?: { status: string } | null;
}

export interface FakeTurn {
  id: string;
  status: 'inProgress' | 'completed' | 'interrupted' | 'failed';
  items?: { type: string; id?: string; text?: string }[];
  error?: { message: string } | null;
}

export interface FakeTurnEnd {
  status: 'completed' | 'interrupted' | 'failed';
  /** The turn's items as `turn/completed` carries them (its last agentMessage is what the agent said). */
  items?: FakeTurn['items'];
  error?: string;
}

export async function startFakeCodexDaemon(): Promise<FakeCodexDaemon> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'askaway-codex-home-'));
  const codexHome = path.join(root, 'codex-home');
  mkdirSync(path.join(codexHome, 'app-server-control'), { recursive: true, mode: 0o700 });
  mkdirSync(path.join(codexHome, 'app-server-daemon'), { recursive: true, mode: 0o700 });
  const link = path.join(codexHome, 'app-server-control', 'app-server-control.sock');
  const threads = new Map<string, FakeThread>();
  const joined = new Map<WebSocket, Set<string>>();
  const pending = new Map<number, { threadId: string; method: string; params: Record<string, unknown> }>();
  const received: Record<string, unknown>[] = [];
  const rawAnswers = new Map<string, (id: number, params: Record<string, unknown>) => string | undefined>();
  let server: http.Server | undefined;
  let wss: WebSocketServer | undefined;
  let socketPath = '';

  const send = (ws: WebSocket, message: unknown) => ws.send(JSON.stringify(message));
  const broadcast = (message: unknown) => {
    for (const ws of joined.keys()) send(ws, message);
  };
  /** To the clients that joined `threadId`, as Codex sends a thread's turn and item notifications. */
  const toJoined = (threadId: string, message: unknown) => {
    for (const [ws, ids] of joined) if (ids.has(threadId)) send(ws, message);
  };
  const turnStarts: FakeCodexDaemon['turnStarts'] = [];
  let turnCounter = 0;
  const turnJson = (turn: FakeTurn) => ({
    id: turn.id,
    status: turn.status,
    error: turn.error ?? null,
    items: turn.items ?? [],
    itemsView: turn.items ? 'summary' : 'notLoaded',
  });
  const runningTurn = (thread: FakeThread) => thread.turns?.find((turn) => turn.status === 'inProgress');
  const startTurn = (threadId: string, turnId = `turn-${String((turnCounter += 1))}`): FakeTurn => {
    const thread = threads.get(threadId);
    if (!thread) throw new Error(`no thread ${threadId}`);
    const turn: FakeTurn = { id: turnId, status: 'inProgress' };
    thread.turns = [...(thread.turns ?? []), turn];
    thread.status = { type: 'active', activeFlags: [] };
    broadcast({ method: 'thread/status/changed', params: { threadId, status: thread.status } });
    toJoined(threadId, { method: 'turn/started', params: { threadId, turn: turnJson(turn) } });
    return turn;
  };

  const answer = (ws: WebSocket, id: number, method: string, params: Record<string, unknown>) => {
    const threadId = typeof params.threadId === 'string' ? params.threadId : '';
    const thread = threads.get(threadId);
    switch (method) {
      case 'initialize':
        return send(ws, { id, result: { userAgent: 'codex-tui/0.171.0 (fake)', codexHome, platformOs: 'linux' } });
      case 'thread/loaded/list':
        return send(ws, { id, result: { data: [...threads.keys()], nextCursor: null } });
      case 'thread/read':
        if (!thread) return send(ws, { id, error: { code: -32600, message: `no thread ${threadId}` } });
        return send(ws, { id, result: { thread: threadJson(thread) } });
      case 'thread/resume': {
        if (!thread) return send(ws, { id, error: { code: -32600, message: `no thread ${threadId}` } });
        if ((thread.noRolloutTimes ?? 0) > 0 || thread.ephemeral) {
          thread.noRolloutTimes = (thread.noRolloutTimes ?? 1) - 1;
          return send(ws, { id, error: { code: -32600, message: `no rollout found for thread id ${threadId}` } });
        }
        joined.get(ws)?.add(threadId);
        send(ws, { id, result: { thread: { ...threadJson(thread), turns: [] }, cwd: thread.cwd ?? null } });
        // Codex re-sends the thread's pending server requests, with their ids, right after the result.
        for (const [requestId, request] of pending)
          if (request.threadId === threadId)
            send(ws, { id: requestId, method: request.method, params: request.params });
        return;
      }
      case 'thread/goal/get':
        return send(ws, { id, result: { goal: thread?.goal ? { threadId, objective: 'e2e', ...thread.goal } : null } });
      case 'thread/turns/list': {
        const turns = [...(thread?.turns ?? [])].reverse().slice(0, Number(params.limit ?? 25));
        return send(ws, { id, result: { data: turns.map(turnJson), nextCursor: null, backwardsCursor: null } });
      }
      case 'turn/start': {
        if (!thread) return send(ws, { id, error: { code: -32600, message: `no thread ${threadId}` } });
        const input = Array.isArray(params.input) ? (params.input as { text?: unknown }[]) : [];
        const text = input.map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
        // While a turn runs, Codex steers the input into it and answers with that turn.
        const running = runningTurn(thread);
        const turn = running ?? { id: `turn-${String((turnCounter += 1))}`, status: 'inProgress' as const };
        turnStarts.push({ threadId, text, turnId: turn.id, steered: running !== undefined });
        send(ws, { id, result: { turn: { ...turnJson(turn), items: [], itemsView: 'notLoaded' } } });
        if (!running) startTurn(threadId, turn.id);
        return;
      }
      case 'thread/items/list':
        return send(ws, {
          id,
          result: { data: thread?.agentMessage ? [{ item: { type: 'agentMessage', text: thread.agentMessage } }] : [] },
        });
      default:
        return send(ws, { id, result: {} });
    }
  };

  const listen = async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cxd-'));
    socketPath = path.join(dir, randomUUID().slice(0, 8));
    server = http.createServer();
    wss = new WebSocketServer({ server });
    wss.on('connection', (ws) => {
      joined.set(ws, new Set());
      ws.on('message', (data) => {
        let message: Record<string, unknown>;
        try {
          message = JSON.parse(data.toString()) as Record<string, unknown>;
        } catch {
          return;
        }
        received.push(message);
        const { id, method } = message;
        const params = (message.params ?? {}) as Record<string, unknown>;
        const raw =
          typeof method === 'string' && typeof id === 'number' ? rawAnswers.get(method)?.(id, params) : undefined;
        if (raw !== undefined) ws.send(raw);
        else if (typeof method === 'string' && typeof id === 'number') answer(ws, id, method, params);
        else if (method === undefined && (typeof id === 'number' || typeof id === 'string')) {
          // A response to one of our requests: the first one settles it, and every client hears so.
          const request = typeof id === 'number' ? pending.get(id) : undefined;
          if (request && typeof id === 'number') {
            pending.delete(id);
            broadcast({ method: 'serverRequest/resolved', params: { threadId: request.threadId, requestId: id } });
          }
        }
      });
      ws.on('close', () => joined.delete(ws));
    });
    await new Promise<void>((resolve) => server?.listen(socketPath, resolve));
    rmSync(link, { force: true });
    symlinkSync(socketPath, link);
    writeFileSync(
      path.join(codexHome, 'app-server-daemon', 'daemon.pid'),
      JSON.stringify({ pid: process.pid, processStartTime: randomUUID() }),
    );
  };

  const close = async () => {
    for (const ws of joined.keys()) ws.terminate();
    joined.clear();
    await new Promise<void>((resolve) => (wss ? wss.close(() => resolve()) : resolve()));
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    rmSync(path.dirname(socketPath), { recursive: true, force: true });
  };

  await listen();
  return {
    codexHome,
    received,
    responsesTo: (id) =>
      received.filter((message) => message.id === id && message.method === undefined).map((message) => message.result),
    clients: () => joined.size,
    addThread(thread) {
      threads.set(thread.id, thread);
    },
    startTurn: (threadId, turnId) => startTurn(threadId, turnId).id,
    completeTurn(threadId, end) {
      const thread = threads.get(threadId);
      const turn = thread && runningTurn(thread);
      if (!thread || !turn) throw new Error(`no turn runs on ${threadId}`);
      Object.assign(turn, {
        status: end.status,
        items: end.items ?? [],
        error: end.status === 'failed' ? { message: end.error ?? 'failed' } : null,
      });
      thread.status = { type: end.status === 'failed' ? 'systemError' : 'idle' };
      broadcast({ method: 'thread/status/changed', params: { threadId, status: thread.status } });
      // 0.171 sends an interrupted turn without its items (`itemsView: notLoaded`).
      const sent =
        end.status === 'interrupted' ? { ...turnJson(turn), items: [], itemsView: 'notLoaded' } : turnJson(turn);
      toJoined(threadId, { method: 'turn/completed', params: { threadId, turn: sent } });
    },
    turnStarts,
    ask(threadId, id, method, params) {
      const full = { ...params, threadId };
      pending.set(id, { threadId, method, params: full });
      for (const [ws, ids] of joined) if (ids.has(threadId)) send(ws, { id, method, params: full });
    },
    resolveElsewhere(threadId, id) {
      pending.delete(id);
      broadcast({ method: 'serverRequest/resolved', params: { threadId, requestId: id } });
    },
    notify(method, params) {
      broadcast({ method, params });
    },
    sendRaw(text) {
      for (const ws of joined.keys()) ws.send(text);
    },
    answerRaw(method, frame) {
      rawAnswers.set(method, frame);
    },
    dropClients() {
      for (const ws of joined.keys()) ws.terminate();
    },
    async stop(options = {}) {
      await close();
      rmSync(link, { force: true });
      if (options.dead)
        // A pid no process has (beyond the kernel's limit), so the bridge knows the daemon is gone.
        writeFileSync(
          path.join(codexHome, 'app-server-daemon', 'daemon.pid'),
          JSON.stringify({ pid: 2 ** 22 + 7, processStartTime: 'gone' }),
        );
    },
    async restart() {
      await close();
      pending.clear();
      await listen();
    },
    async remove() {
      await close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function threadJson(thread: FakeThread) {
  return {
    id: thread.id,
    ephemeral: thread.ephemeral ?? false,
    cwd: thread.cwd ?? null,
    name: thread.name ?? null,
    cliVersion: '0.171.0',
    threadSource: thread.ephemeral ? 'thread_title' : 'user',
    parentThreadId: thread.parentThreadId ?? null,
    status: thread.status ?? { type: 'idle' },
  };
}

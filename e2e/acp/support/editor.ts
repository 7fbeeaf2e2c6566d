// A small ACP editor of the suite's own (JSON-RPC lines on stdio, as Zed's and JetBrains' clients speak it): it
// starts `askaway acp -- <agent command>` (Gemini CLI, Copilot: see agents.ts) in a temporary HOME, opens a
// session and prompts. Its permission dialog either honours
// `$/cancel_request` (answers `cancelled` at once, as the ACP SDK's handlers do when their signal aborts) or
// ignores it and answers late, as an older editor would.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { expect } from '@playwright/test';
import { testRunEnv } from '../../../lib/host/test-support/leftover-processes';
import { asProcessEnv } from '../../claude-code/support/claude-project';
import { forAgentWork } from '../../support/agent-wait';

const CLI = path.resolve(import.meta.dirname, '..', '..', '..', 'dist', 'cli.js');
/** From starting the proxy to an open session: a few seconds on an idle machine (Copilot: about 3 s). */
const HANDSHAKE_TIMEOUT_MS = 45_000;

export interface EditorMessage {
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: unknown;
}

/** How one agent starts behind the proxy: what the editor runs after `--`, and what the agent needs around it. */
export interface AcpAgentLaunch {
  command: readonly string[];
  /** Added to the editor's environment (a fresh one: PATH, HOME, LANG and the hub's settings). */
  env: Record<string, string>;
  /** Writes the agent's settings in the temporary HOME before it starts (auth, folder trust). */
  prepare?: (dirs: { home: string; project: string }) => Promise<void>;
  /** The `authenticate` method the editor calls after `initialize`, for an agent that asks for one. */
  authMethod?: string;
}

export interface EditorOptions {
  agent: AcpAgentLaunch;
  /** Where the proxy finds its hub; an address nobody listens on is a hub that is down. */
  hub: { url: string; token: string };
  /** What the editor does when the agent is told the request is cancelled. */
  onCancel: 'honour' | 'ignore';
}

export interface AcpEditor {
  project: string;
  sessionId: string;
  /** `initialize`'s result, as the agent sent it. */
  initialized: Record<string, unknown>;
  /** Everything the editor received, in order. */
  received: EditorMessage[];
  /** Sends a prompt; resolves with `session/prompt`'s result once the turn ends. */
  prompt(text: string): Promise<Record<string, unknown>>;
  /** Sends a prompt; resolves with the agent's whole response (its result or its error) once the turn ends. */
  promptReply(text: string): Promise<EditorMessage>;
  /** The permission request the editor is showing, once one arrives. */
  permission(): Promise<EditorMessage>;
  /** Answers a permission request from the editor's own dialog. */
  answer(id: number | string, optionId: string): void;
  /** The person stops the turn in the editor (`session/cancel`). */
  cancel(): void;
  /** Answers a permission request as cancelled, as ACP asks of an editor that cancelled the turn. */
  cancelled(id: number | string): void;
  /** The proxy's and the agent's stderr. */
  log(): string;
  close(): Promise<void>;
}

export async function startEditor(options: EditorOptions): Promise<AcpEditor> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'askaway-acp-'));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  await mkdir(home, { recursive: true });
  await mkdir(project, { recursive: true });
  await options.agent.prepare?.({ home, project });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    // The run's own temporary folder: what the agent leaves there (Gemini CLI's error reports) goes with the run.
    TMPDIR: os.tmpdir(),
    ...options.agent.env,
    ASKAWAY_URL: options.hub.url,
    ASKAWAY_TOKEN: options.hub.token,
    ASKAWAY_DATA_DIR: path.join(root, 'askaway'),
    ...testRunEnv(),
  };
  // Its own process group: whatever the agent starts (shells, helpers) is killed with it at the end.
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [CLI, 'acp', '--', ...options.agent.command], {
    cwd: project,
    env: asProcessEnv(env),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const killGroup = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is gone
    }
  };
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const received: EditorMessage[] = [];
  const waiting = new Map<number | string, (message: EditorMessage) => void>();
  let nextId = 1;
  const write = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const call = (method: string, params: unknown) =>
    new Promise<EditorMessage>((resolve) => {
      const id = nextId;
      nextId += 1;
      waiting.set(id, resolve);
      write({ jsonrpc: '2.0', id, method, params });
    });
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as EditorMessage;
    received.push(message);
    if (message.method === undefined && message.id !== undefined) {
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
    if (message.method === '$/cancel_request' && options.onCancel === 'honour') {
      const requestId = message.params?.requestId;
      if (typeof requestId === 'number' || typeof requestId === 'string')
        write({ jsonrpc: '2.0', id: requestId, result: { outcome: { outcome: 'cancelled' } } });
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    child.stdin.end();
    const killer = setTimeout(killGroup, 5_000);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    clearTimeout(killer);
    killGroup();
    await rm(root, { recursive: true, force: true });
  };

  const open = async () => {
    const init = await call('initialize', {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    });
    expect(init.result, stderr).toBeDefined();
    if (options.agent.authMethod) await call('authenticate', { methodId: options.agent.authMethod });
    const session = await call('session/new', { cwd: project, mcpServers: [] });
    const sessionId = String(session.result?.sessionId ?? '');
    expect(sessionId, stderr).not.toBe('');
    return { init, sessionId };
  };
  // An agent that dies or hangs before its session is open fails the test here, and is stopped, not left behind.
  let timer: NodeJS.Timeout | undefined;
  const failed = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no session within ${HANDSHAKE_TIMEOUT_MS} ms:\n${stderr}`)),
      HANDSHAKE_TIMEOUT_MS,
    );
    child.once('exit', () => reject(new Error(`the agent exited before its session opened:\n${stderr}`)));
  });
  // Its exit after the session opened is no failure of the handshake.
  failed.catch(() => undefined);
  let handshake: Awaited<ReturnType<typeof open>>;
  try {
    handshake = await Promise.race([open(), failed]);
  } catch (error) {
    await close();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const { init, sessionId } = handshake;

  return {
    project,
    sessionId,
    initialized: init.result ?? {},
    received,
    async prompt(text) {
      const reply = await call('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
      return reply.result ?? {};
    },
    promptReply: (text) => call('session/prompt', { sessionId, prompt: [{ type: 'text', text }] }),
    async permission() {
      await expect
        .poll(() => received.find((message) => message.method === 'session/request_permission'), {
          timeout: forAgentWork(),
        })
        .toBeDefined();
      return received.find((message) => message.method === 'session/request_permission') ?? {};
    },
    answer(id, optionId) {
      write({ jsonrpc: '2.0', id, result: { outcome: { outcome: 'selected', optionId } } });
    },
    cancel() {
      write({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId } });
    },
    cancelled(id) {
      write({ jsonrpc: '2.0', id, result: { outcome: { outcome: 'cancelled' } } });
    },
    log: () => stderr,
    close,
  };
}

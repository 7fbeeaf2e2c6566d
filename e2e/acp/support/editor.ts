// A small ACP editor of the suite's own (JSON-RPC lines on stdio, as Zed's and JetBrains' clients speak it): it
// starts `askaway acp -- gemini --acp`, opens a session and prompts. Its permission dialog either honours
// `$/cancel_request` (answers `cancelled` at once, as the ACP SDK's handlers do when their signal aborts) or
// ignores it and answers late, as an older editor would.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { expect } from '@playwright/test';
import { testRunEnv } from '../../../lib/host/test-support/leftover-processes';
import { asProcessEnv } from '../../claude-code/support/claude-project';

const CLI = path.resolve(import.meta.dirname, '..', '..', '..', 'dist', 'cli.js');

export interface EditorMessage {
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: unknown;
}

export interface EditorOptions {
  gemini: string;
  modelUrl: string;
  /** Where the proxy finds its hub; an address nobody listens on is a hub that is down. */
  hub: { url: string; token: string };
  /** What the editor does when the agent is told the request is cancelled. */
  onCancel: 'honour' | 'ignore';
}

export interface AcpEditor {
  project: string;
  sessionId: string;
  /** Everything the editor received, in order. */
  received: EditorMessage[];
  /** Sends a prompt; resolves with `session/prompt`'s result once the turn ends. */
  prompt(text: string): Promise<Record<string, unknown>>;
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
  await mkdir(path.join(home, '.gemini'), { recursive: true });
  await mkdir(project, { recursive: true });
  await writeFile(
    path.join(home, '.gemini', 'settings.json'),
    JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }),
  );
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    GOOGLE_GEMINI_BASE_URL: options.modelUrl,
    GEMINI_API_KEY: 'e2e-not-a-real-key',
    GEMINI_CLI_NO_RELAUNCH: 'true',
    ASKAWAY_URL: options.hub.url,
    ASKAWAY_TOKEN: options.hub.token,
    ASKAWAY_DATA_DIR: path.join(root, 'askaway'),
    ...testRunEnv(),
  };
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [CLI, 'acp', '--', options.gemini, '--acp'], {
    cwd: project,
    env: asProcessEnv(env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
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

  const init = await call('initialize', {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
  });
  expect(init.result, stderr).toBeDefined();
  await call('authenticate', { methodId: 'gemini-api-key' });
  const session = await call('session/new', { cwd: project, mcpServers: [] });
  const sessionId = String(session.result?.sessionId ?? '');
  expect(sessionId, stderr).not.toBe('');

  return {
    project,
    sessionId,
    received,
    async prompt(text) {
      const reply = await call('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
      return reply.result ?? {};
    },
    async permission() {
      await expect
        .poll(() => received.find((message) => message.method === 'session/request_permission'), { timeout: 30_000 })
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
    async close() {
      child.stdin.end();
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      clearTimeout(killer);
      await rm(root, { recursive: true, force: true });
    },
  };
}

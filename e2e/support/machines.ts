import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { JoinCodeResponseSchema, JoinedHubFileSchema, type AskUserQuestionInputLike } from '../../lib/contracts';
import { type TestHost } from './host';
import { ScriptedRuntime } from './scripted-runtime';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const run = promisify(execFile);

/** Another computer joined to the hub (R17.1): its own data dir, name and machine credential. */
export interface JoinedMachine {
  name: string;
  id: string;
  dataDir: string;
  /** From its hub.json: what its runtimes authenticate with. */
  credential: string;
  /** A scripted runtime of this machine, connected with its credential. */
  runtime: ScriptedRuntime;
  remove(): Promise<void>;
}

const CLI_ENV = { ...process.env, NO_COLOR: '1', ASKAWAY_URL: '', ASKAWAY_TOKEN: '' };

/**
 * Joins a machine the way a person does: `askaway invite --json` on the hub (`inviteArgs`: `--for <email>` for a
 * person's machine on a team hub), then `askaway join <url> <code>` in the machine's own data dir with
 * ASKAWAY_MACHINE_NAME, both real CLI processes; then connects a scripted runtime with the credential `join` kept in
 * hub.json.
 */
export async function joinMachine(
  host: TestHost,
  name: string,
  inviteArgs: readonly string[] = [],
): Promise<JoinedMachine> {
  const invited = await run(
    process.execPath,
    [CLI, 'invite', '--json', '--data-dir', host.dataDir, '--url', host.url, ...inviteArgs],
    { env: CLI_ENV },
  );
  const invite = JoinCodeResponseSchema.parse(JSON.parse(invited.stdout));
  return joinWithCode(host, name, invite.code);
}

/** `askaway join <url> <code>` for a code minted elsewhere (the app's "Invite a machine"), then its runtime. */
export async function joinWithCode(host: TestHost, name: string, code: string): Promise<JoinedMachine> {
  const env = CLI_ENV;
  host.rememberSecret(code);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'askaway-e2e-machine-'));
  await run(process.execPath, [CLI, 'join', host.url, code], {
    env: { ...env, ASKAWAY_DATA_DIR: dataDir, ASKAWAY_MACHINE_NAME: name },
  });
  const hub = JoinedHubFileSchema.parse(JSON.parse(await readFile(path.join(dataDir, 'hub.json'), 'utf8')));
  host.rememberSecret(hub.credential);
  const runtime = new ScriptedRuntime(host.url, hub.credential);
  await runtime.connected();
  return {
    name: hub.machine.name,
    id: hub.machine.id,
    dataDir,
    credential: hub.credential,
    runtime,
    async remove() {
      runtime.close();
      // An agent's bridge may still be writing there as it exits (a log, a lock): retried, not left behind.
      await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    },
  };
}

/** The request a runtime process asks, and re-announces every second under the same id (R8.1). */
export interface ProcessQuestion {
  requestId: string;
  sessionId: string;
  input: AskUserQuestionInputLike;
  context?: { cwd?: string; projectName?: string };
}

/**
 * A machine's runtime as a real process (e2e/support/runtime-process-main.ts): it asks one question
 * and prints each resolution it receives as a JSON line. Killing it with SIGKILL drops the machine's
 * agents at once; starting another with the same question is the machine coming back.
 */
export class RuntimeProcess {
  readonly resolutions: unknown[] = [];
  private output = '';
  private readonly child: ChildProcess;
  readonly announced: Promise<void>;

  constructor(url: string, credential: string, question: ProcessQuestion) {
    this.child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'runtime-process-main.ts')],
      {
        cwd: ROOT,
        env: { ...process.env, E2E_HOST_URL: url, E2E_CREDENTIAL: credential, E2E_QUESTION: JSON.stringify(question) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.announced = new Promise((resolve, reject) => {
      this.child.stdout?.on('data', (chunk: Buffer) => {
        this.output += chunk.toString();
        const lines = this.output.split('\n');
        this.output = lines.pop() ?? '';
        for (const line of lines) {
          const message = JSON.parse(line) as { announced?: string; resolved?: unknown };
          if (message.announced) resolve();
          if (message.resolved) this.resolutions.push(message.resolved);
        }
      });
      let errors = '';
      this.child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      this.child.once('exit', (code, signal) =>
        reject(new Error(`runtime process ended (${code ?? signal}): ${errors}`)),
      );
    });
  }

  /** SIGKILL: no goodbye, no withdraw; the hub only sees the connection drop. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGKILL');
    await exited;
  }
}

// The process-wide last resort (R12.18) in the real commands: a rejection nobody handled and an exception nobody
// caught are provoked inside a running `askaway start`, `askaway acp`, `askaway copilot` and `askaway opencode bridge`, from a module
// preloaded with --import (nothing in the product provokes them); each logs one line and keeps serving.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testRunEnv } from '../lib/host/test-support/leftover-processes';
import { tempDir } from '../lib/host/test-support/test-host';
import { cliCommand } from '../lib/runtime/test-support/run-cli';

const SLOW = { timeout: 15_000, interval: 50 };
const REJECTION = 'askaway: kept serving after an unhandled rejection: Error: provoked rejection';
const EXCEPTION = 'askaway: kept serving after an uncaught exception: Error: provoked exception';

const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

/** Files the test's processes use: the provoking preload, an idle agent that says it started. */
function fixtures() {
  const dir = tempDir();
  const provoke = path.join(dir, 'provoke.mjs');
  // On SIGUSR2: a promise rejected with nobody to handle it, and a throw from a callback nobody catches.
  fs.writeFileSync(
    provoke,
    `process.on('SIGUSR2', () => {
      Promise.reject(new Error('provoked rejection'));
      setImmediate(() => { throw new Error('provoked exception'); });
    });\n`,
  );
  const ready = path.join(dir, 'agent-ready');
  const agent = path.join(dir, 'agent.mjs');
  fs.writeFileSync(
    agent,
    // It leaves with the command that started it: a SIGKILLed acp or copilot cannot take its agent along.
    `import fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(ready)}, 'up');\n` +
      `const parent = process.ppid;\nsetInterval(() => { if (process.ppid !== parent) process.exit(0); }, 200);\n`,
  );
  const copilot = path.join(dir, 'copilot');
  fs.writeFileSync(copilot, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(agent)}\n`, {
    mode: 0o755,
  });
  return { dir, provoke, ready, agent, copilot };
}

/** `askaway <args>` as one real process with `provoke` preloaded. */
function spawnProvoked(provoke: string, args: string[], env: Record<string, string>) {
  const cli = cliCommand(args);
  const child = spawn(cli.command, ['--import', pathToFileURL(provoke).href, ...cli.args], {
    cwd: cli.cwd,
    env: { NODE_ENV: 'test', PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...testRunEnv(), ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  return { child, output: () => output, exited };
}

const lines = (text: string, line: string) => text.split('\n').filter((each) => each.includes(line)).length;

describe('[R12.18] the last resort of the long-running commands', () => {
  it('[R12.18] askaway start: a provoked unhandled rejection and uncaught exception are one line each; the hub keeps serving', async () => {
    const { provoke } = fixtures();
    const host = spawnProvoked(provoke, ['start', '--no-demo', '--no-codex', '--port', '0', '--data-dir', tempDir()], {
      ASKAWAY_TOKEN: 'last-resort-token-0123',
    });
    const url = await vi.waitFor(() => {
      const match = /Local:\s+(\S+)/.exec(host.output());
      expect(match?.[1]).toBeDefined();
      return (match?.[1] ?? '').replace(/\/$/, '');
    }, SLOW);
    host.child.kill('SIGUSR2');
    await vi.waitFor(() => {
      expect(lines(host.output(), REJECTION)).toBe(1);
      expect(lines(host.output(), EXCEPTION)).toBe(1);
    }, SLOW);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(host.child.exitCode).toBeNull();
    host.child.kill('SIGTERM');
    expect(await host.exited).toBe(0);
  });

  it('[R12.18] askaway acp and askaway copilot: the line goes to their log, the agent keeps running', async () => {
    const files = fixtures();
    const acpLog = path.join(files.dir, 'acp.log');
    const copilotLog = path.join(files.dir, 'copilot.log');
    // No hub to reach: both carry on as without Askaway.
    const hub = { ASKAWAY_URL: 'http://127.0.0.1:9', ASKAWAY_TOKEN: 'none', ASKAWAY_DATA_DIR: files.dir };
    const acp = spawnProvoked(files.provoke, ['acp', '--', process.execPath, files.agent], {
      ...hub,
      ASKAWAY_ACP_LOG: acpLog,
    });
    await vi.waitFor(() => expect(fs.existsSync(files.ready)).toBe(true), SLOW);
    fs.rmSync(files.ready);
    const copilot = spawnProvoked(files.provoke, ['copilot'], {
      ...hub,
      COPILOT_BIN: files.copilot,
      ASKAWAY_COPILOT_LOG: copilotLog,
    });
    await vi.waitFor(() => expect(fs.existsSync(files.ready)).toBe(true), SLOW);
    for (const [cli, log] of [
      [acp, acpLog],
      [copilot, copilotLog],
    ] as const) {
      cli.child.kill('SIGUSR2');
      await vi.waitFor(() => {
        const text = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '';
        expect(lines(text, REJECTION)).toBe(1);
        expect(lines(text, EXCEPTION)).toBe(1);
      }, SLOW);
      expect(cli.child.exitCode).toBeNull();
    }
    // Nothing of it on acp's stdout, the editor's channel.
    expect(acp.output()).not.toContain('kept serving');
  });

  it("[R12.18] askaway opencode bridge: the line goes to stderr, never the plugin's stdout; the bridge keeps reading", async () => {
    const files = fixtures();
    const hub = { ASKAWAY_URL: 'http://127.0.0.1:9', ASKAWAY_TOKEN: 'none', ASKAWAY_DATA_DIR: files.dir };
    const bridge = spawnProvoked(files.provoke, ['opencode', 'bridge'], hub);
    let stdout = '';
    bridge.child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    // The preload's SIGUSR2 handler is in place once the bridge's own code runs: a line it refuses says so.
    bridge.child.stdin?.write('not json\n');
    await vi.waitFor(() => expect(bridge.output()).toContain('not a plugin message'), SLOW);
    bridge.child.kill('SIGUSR2');
    await vi.waitFor(() => {
      expect(lines(bridge.output(), REJECTION)).toBe(1);
      expect(lines(bridge.output(), EXCEPTION)).toBe(1);
    }, SLOW);
    expect(stdout).not.toContain('kept serving');
    expect(bridge.child.exitCode).toBeNull();
    // OpenCode closing its end stops the bridge as before.
    bridge.child.stdin?.end();
    expect(await bridge.exited).toBe(0);
  });
});

// Playwright passes each fixture's value through a callback; it is named `provide` (not `use`) so
// React's hook lint rule does not mistake it for React's `use`.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect } from '@playwright/test';
import { asProcessEnv } from '../../claude-code/support/claude-project';
import { test as base } from '../../claude-code/support/fixtures';
import { locateCodex, ROOT, type CodexInstall } from './codex-binary';
import { createCodexHome, type CodexHome, type CodexHomeOptions } from './codex-home';
import { startScriptedModel, type ScriptedConversation, type ScriptedModel } from './model-server';
import { startCodexTui, type CodexTui } from './tui';
import { provideLocated } from '../../support/agent-binary';

export const CLI = path.join(ROOT, 'dist', 'cli.js');

/** `askaway codex` as a real process: the bridge for one Codex home. */
export interface BridgeProcess {
  dataDir: string;
  /** Freezes the bridge (SIGSTOP) and lets it go on (SIGCONT): what it hears meanwhile waits in its sockets. */
  pause(): void;
  resume(): void;
  output(): string;
  /** Waits until the bridge logged a line matching `pattern`. */
  logged(pattern: RegExp, timeout?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface CodexSession {
  model: ScriptedModel;
  home: CodexHome;
  /** Starts a TUI in this home (stopped with the test). */
  tui(args?: string[]): Promise<CodexTui>;
  /** Starts `askaway codex` for this home: as the hub's own machine, or with a joined machine's data dir. */
  bridge(env?: Record<string, string>): Promise<BridgeProcess>;
}

export interface SessionOptions extends Pick<CodexHomeOptions, 'top' | 'tables' | 'env'> {
  conversations: ScriptedConversation[];
}

interface Fixtures {
  /** The Codex CLI; the test is skipped (locally) or fails (CI) when it is not installed. */
  codex: CodexInstall;
  /** A scripted model and a Codex home pointing at it; everything it starts is stopped by PID at the end. */
  session: (options: SessionOptions) => Promise<CodexSession>;
}

function startBridge(home: CodexHome, env: Record<string, string>): BridgeProcess {
  const dataDir = env.ASKAWAY_DATA_DIR ?? path.join(home.root, 'askaway');
  const child: ChildProcess = spawn(process.execPath, [CLI, 'codex', '--codex-home', home.codexHome], {
    env: asProcessEnv({
      PATH: process.env.PATH ?? '',
      HOME: home.home,
      ASKAWAY_DATA_DIR: dataDir,
      NO_COLOR: '1',
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    dataDir,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    output: () => output,
    async logged(pattern, timeout = 20_000) {
      await expect
        .poll(() => pattern.test(output), { timeout, message: `bridge never logged ${pattern}:\n${output}` })
        .toBe(true);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGCONT');
        child.kill('SIGTERM');
      }
      await exited;
    },
  };
}

/**
 * The Claude Code suite's fixtures (its worker's host, the scripted phone, the PWA) with Codex's own: the
 * `claude` fixture there is never asked for here, so a missing Claude Code changes nothing.
 */
export const test = base.extend<Fixtures>({
  codex: async ({}, provide, testInfo) => provideLocated(locateCodex(), provide, testInfo),
  session: async ({ codex, host }, provide) => {
    const stops: (() => Promise<void>)[] = [];
    await provide(async (options) => {
      const model = await startScriptedModel(options.conversations);
      stops.push(() => model.close());
      const home = await createCodexHome({ install: codex, modelUrl: model.url, ...options });
      // Last in, first out: TUIs, then bridges, then the daemon and the home.
      stops.push(() => home.remove());
      return {
        model,
        home,
        async tui(args = []) {
          const tui = await startCodexTui(codex.binary, home, args, (prompt) => model.sawUserText(prompt));
          stops.push(() => tui.stop());
          return tui;
        },
        async bridge(env = { ASKAWAY_URL: host.url, ASKAWAY_TOKEN: host.token }) {
          const bridge = startBridge(home, env);
          stops.push(() => bridge.stop());
          return bridge;
        },
      };
    });
    for (const stop of stops.reverse()) await stop();
  },
});

export { expect };

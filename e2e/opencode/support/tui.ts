import { expect } from '@playwright/test';
import { startTmuxSession, type TmuxSession } from '../../claude-code/support/tmux-session';
import { forAgentWork } from '../../support/agent-wait';
import { type OpenCodeLab } from './opencode-lab';

/**
 * The TUI's start (the shared one's worker fixture, a restart): 10–12 s on an idle 2-core machine, several times that
 * at a load of 15 on one (CI beside other suites), where 60 s failed permission.spec.ts's first test before it
 * began. Only a start that never comes waits it out.
 */
export const TUI_START_TIMEOUT_MS = 120_000;

/** OpenCode's TUI, a plain `opencode` (no port), in a detached tmux session on a private tmux server. */
export async function startTui(binary: string, lab: OpenCodeLab): Promise<TmuxSession> {
  const tmux = await startTmuxSession({ binary, cwd: lab.project, env: lab.env });
  try {
    // 10–12 s on an idle 2-core machine; far more when the machine is busy.
    await waitForScreen(tmux, /Ask anything/, TUI_START_TIMEOUT_MS);
  } catch (error) {
    await tmux.stop();
    throw error;
  }
  return tmux;
}

/**
 * Waits until the screen matches; the failure shows the last screen. In a test, what OpenCode draws is its own
 * work on a loaded machine too, so the wait lasts what is left of the test (forAgentWork) unless told.
 */
export async function waitForScreen(tmux: TmuxSession, pattern: RegExp, timeout = forAgentWork()): Promise<string> {
  let last = '';
  await expect
    .poll(
      async () => {
        last = await tmux.screen();
        return pattern.test(last);
      },
      { timeout, intervals: [100], message: `screen never matched ${pattern}` },
    )
    .toBe(true)
    .catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- last screen ---\n${last}`);
    });
  return last;
}

/** A new session with `prompt` as its first message: one scripted conversation per session. */
export async function newSession(tmux: TmuxSession, prompt: string): Promise<void> {
  await tmux.keys(['/new'], { literal: true });
  await waitForScreen(tmux, /\/new/);
  await tmux.keys(['Enter']);
  await waitForScreen(tmux, /Ask anything/);
  await tmux.keys([prompt], { literal: true });
  await waitForScreen(tmux, new RegExp(prompt.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  await tmux.keys(['Enter']);
}

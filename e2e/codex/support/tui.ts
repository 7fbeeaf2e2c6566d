import { expect } from '@playwright/test';
import { startTmuxSession, type TmuxSession } from '../../claude-code/support/tmux-session';
import { type CodexHome } from './codex-home';
import { forAgentWork } from '../../support/agent-wait';

/** The footer names the model once the TUI has its thread (the trust dialog is pre-answered in config). */
const READY = /GPT-5\.5 (default|medium|low|high)/;
/**
 * Codex 0.171 drops keys that arrive while it is still booting or redrawing: Shift+Tab sent as the footer
 * appears is lost (measured: about 2 s after it), and so is a digit sent as an overlay draws. A screen must
 * have shown what is expected this long before it gets keys.
 */
const BOOT_GRACE_MS = 2_000;
const OVERLAY_GRACE_MS = 500;

/** Codex's terminal UI under tmux, with waits that read the screen. */
export interface CodexTui {
  tmux: TmuxSession;
  screen(): Promise<string>;
  /** Waits until the screen matches; the failure shows the last screen. */
  waitFor(pattern: RegExp, timeout?: number): Promise<string>;
  /** Waits until `pattern` has been on screen long enough to take keys. */
  settle(pattern: RegExp, graceMs?: number): Promise<void>;
  /** Waits for the footer, then enters Plan mode (Shift+Tab) when asked: questions need it. */
  ready(options?: { plan?: boolean }): Promise<void>;
  /** Types a prompt and sends it. */
  submit(prompt: string): Promise<void>;
  /** Sends `key` once `pattern` has been on screen long enough to take it. */
  pressOn(pattern: RegExp, key: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `sent(prompt)` says whether the model got the prompt: the TUI's own signs of a turn (a "Working" line)
 * can be gone before a poll sees them, when an approval overlay takes the screen at once.
 */
export async function startCodexTui(
  binary: string,
  home: CodexHome,
  args: string[],
  sent: (prompt: string) => boolean,
): Promise<CodexTui> {
  const tmux = await startTmuxSession({ binary, cwd: home.workDir, env: home.env, args });
  let last = '';
  const poll = async (done: (screen: string) => boolean, message: string, timeout = forAgentWork()) => {
    await expect
      .poll(
        async () => {
          last = await tmux.screen();
          return done(last);
        },
        { timeout, intervals: [50, 100], message },
      )
      .toBe(true)
      .catch((error: unknown) => {
        throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- last screen ---\n${last}`);
      });
    return last;
  };
  const settle = async (pattern: RegExp, graceMs = OVERLAY_GRACE_MS) => {
    let since: number | undefined;
    await poll((screen) => {
      if (!pattern.test(screen)) {
        since = undefined;
        return false;
      }
      since ??= Date.now();
      return Date.now() - since >= graceMs;
    }, `screen never settled on ${pattern}`);
  };
  const tui: CodexTui = {
    tmux,
    screen: () => tmux.screen(),
    waitFor: (pattern, timeout) => poll((screen) => pattern.test(screen), `screen never matched ${pattern}`, timeout),
    settle,
    async ready({ plan = false } = {}) {
      await settle(READY, BOOT_GRACE_MS);
      if (!plan) return;
      // A Shift+Tab the TUI dropped is sent again.
      await expect
        .poll(
          async () => {
            if (!/Plan mode/.test(await tmux.screen())) await tmux.keys(['BTab']);
            return poll((screen) => /Plan mode/.test(screen), 'Plan mode', 1_500).then(
              () => true,
              () => false,
            );
          },
          { timeout: 10_000, intervals: [0] },
        )
        .toBe(true);
    },
    async submit(prompt) {
      await tmux.keys([prompt], { literal: true });
      await settle(new RegExp(`› ${prompt.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), 300);
      await tmux.keys(['Enter']);
      await expect
        .poll(() => sent(prompt), { timeout: forAgentWork(), message: `the model never got "${prompt}"` })
        .toBe(true);
    },
    async pressOn(pattern, key) {
      await settle(pattern);
      await tmux.keys([key]);
    },
    stop: () => tmux.stop(),
  };
  return tui;
}

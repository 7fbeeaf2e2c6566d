import { expect } from '@playwright/test';
import { type Workspace } from './fixtures';
import { startTmuxSession, type TmuxSession } from './tmux-session';

const SCREEN_TIMEOUT_MS = 20_000;

/** Claude Code's interactive UI in this workspace, under tmux (stopped with the workspace). */
export async function startInteractive(
  claude: string,
  workspace: Workspace,
  args: string[] = [],
): Promise<TmuxSession> {
  const tmux = await startTmuxSession({ binary: claude, cwd: workspace.project.dir, env: workspace.project.env, args });
  workspace.stoppers.push(() => tmux.stop());
  return tmux;
}

/** Waits until the screen matches; the failure shows the last screen. */
export async function waitForScreen(tmux: TmuxSession, pattern: RegExp, timeout = SCREEN_TIMEOUT_MS): Promise<string> {
  let last = '';
  await expect
    .poll(
      async () => {
        last = await tmux.screen();
        return pattern.test(last);
      },
      { timeout, message: `screen never matched ${pattern}` },
    )
    .toBe(true)
    .catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- last screen ---\n${last}`);
    });
  return last;
}

/**
 * Moves a menu's cursor (❯) onto `target` with `key`. The UI draws before it reads keys, so a key sent
 * too early is lost: send it again while the cursor is still elsewhere.
 */
async function pick(tmux: TmuxSession, target: RegExp, key: 'Up' | 'Down'): Promise<void> {
  let last = '';
  await expect
    .poll(
      async () => {
        last = await tmux.screen();
        if (target.test(last)) return true;
        await tmux.keys([key]);
        return false;
      },
      { timeout: SCREEN_TIMEOUT_MS, message: `menu cursor never reached ${target}` },
    )
    .toBe(true)
    .catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- last screen ---\n${last}`);
    });
  await tmux.keys(['Enter']);
}

/** The two first-run dialogs of a fresh HOME: trust this folder (it has hooks), use the API key. */
export async function passFirstRunDialogs(tmux: TmuxSession): Promise<void> {
  await waitForScreen(tmux, /Yes, I trust this folder/);
  await pick(tmux, /❯\sYes, I trust this folder/, 'Down');
  await waitForScreen(tmux, /Do you want to use this API key\?/);
  await pick(tmux, /❯\sYes\s*\n/, 'Up');
  await waitForScreen(tmux, /Claude Code v\d/);
}

/** Types a prompt into the input box and sends it. */
export async function submitPrompt(tmux: TmuxSession, prompt: string): Promise<void> {
  await tmux.keys([prompt], { literal: true });
  await waitForScreen(tmux, new RegExp(`❯\\s${prompt.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  await tmux.keys(['Enter']);
}

import { expect } from '@playwright/test';
import { type Workspace } from './fixtures';
import { startTmuxSession, type TmuxSession } from './tmux-session';
import { forAgentWork } from '../../support/agent-wait';

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

/**
 * How long a dialog must have been on screen before it gets keys. Claude Code refuses the keys a dialog gets
 * as it appears, so that a keystroke typed ahead cannot answer it: 2.1.332 drops an Enter sent within
 * ~160 ms of a dialog showing (a permission prompt then stays open, and nothing is approved), and a Down
 * sent then moves the cursor on screen only to put it back (a later Enter takes the default option).
 */
const DIALOG_INPUT_GRACE_MS = 500;

/** Polls the screen until `done` says so; the failure shows the last screen. */
async function pollScreen(
  tmux: TmuxSession,
  done: (screen: string) => boolean,
  message: string,
  options: { timeout?: number; intervals?: number[] } = {},
): Promise<string> {
  let last = '';
  await expect
    .poll(
      async () => {
        last = await tmux.screen();
        return done(last);
      },
      { timeout: forAgentWork(), ...options, message },
    )
    .toBe(true)
    .catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- last screen ---\n${last}`);
    });
  return last;
}

/** Waits until the screen matches; the failure shows the last screen. */
export function waitForScreen(tmux: TmuxSession, pattern: RegExp, timeout = forAgentWork()): Promise<string> {
  return pollScreen(tmux, (screen) => pattern.test(screen), `screen never matched ${pattern}`, { timeout });
}

/** Waits until `dialog` shows and has been showing long enough to take keys (DIALOG_INPUT_GRACE_MS). */
export function waitForDialog(tmux: TmuxSession, dialog: RegExp): Promise<string> {
  let since: number | undefined;
  return pollScreen(
    tmux,
    (screen) => {
      if (!dialog.test(screen)) {
        since = undefined;
        return false;
      }
      since ??= Date.now();
      return Date.now() - since >= DIALOG_INPUT_GRACE_MS;
    },
    `dialog ${dialog} never showed`,
    { intervals: [50] },
  );
}

/** The lines that show a cursor (❯): where a menu's selection is. */
const cursorLines = (screen: string) =>
  screen
    .split('\n')
    .filter((line) => line.includes('❯'))
    .join('\n');

/** Moves a menu's cursor (❯) onto `target` with `key`, one key at a time, each seen to land before the next. */
export async function moveTo(tmux: TmuxSession, target: RegExp, key: 'Up' | 'Down'): Promise<void> {
  let screen = await tmux.screen();
  while (!target.test(screen)) {
    const cursor = cursorLines(screen);
    await tmux.keys([key]);
    screen = await pollScreen(tmux, (now) => cursorLines(now) !== cursor, `${key} never moved the cursor to ${target}`);
  }
}

/** Presses Enter and waits until `pending` (the dialog, or its selected option) has left the screen. */
export async function confirm(tmux: TmuxSession, pending: RegExp): Promise<void> {
  await tmux.keys(['Enter']);
  await pollScreen(tmux, (screen) => !pending.test(screen), `Enter left ${pending} on screen`);
}

/** The two first-run dialogs of a fresh HOME: trust this folder (it has hooks), use the API key. */
export async function passFirstRunDialogs(tmux: TmuxSession): Promise<void> {
  await waitForDialog(tmux, /Yes, I trust this folder/);
  await moveTo(tmux, /❯\sYes, I trust this folder/, 'Down');
  await confirm(tmux, /Yes, I trust this folder/);
  await waitForDialog(tmux, /Do you want to use this API key\?/);
  await moveTo(tmux, /❯\sYes\s*\n/, 'Up');
  await confirm(tmux, /Do you want to use this API key\?/);
  await waitForScreen(tmux, /Claude Code v\d/);
}

/** Types a prompt into the input box and sends it. */
export async function submitPrompt(tmux: TmuxSession, prompt: string): Promise<void> {
  await tmux.keys([prompt], { literal: true });
  await waitForScreen(tmux, new RegExp(`❯\\s${prompt.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  await tmux.keys(['Enter']);
}

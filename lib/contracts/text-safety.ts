// No imports: the host's log lines, the CLI's lists and the name schemas all use these.

/**
 * Characters that change how the text around them is drawn rather than being drawn themselves:
 * C0 and C1 controls and DEL (a terminal's escapes, backspace, NUL), zero-width characters and
 * bidi controls (which reorder a line, so "laptop" can read as something else).
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/gu;

/** True when `text` holds a character that moves, hides or reorders what is shown around it. */
export function hasUnsafeCharacters(text: string): boolean {
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(text);
}

/** `text` without any of those characters. */
export function stripUnsafeCharacters(text: string): string {
  return text.replace(UNSAFE, '');
}

/**
 * Text from outside (a question, an answer, a reason, a name, a tool name) made fit for a line of
 * the host's terminal: each unsafe character becomes a visible escape (`\u001b`), so nothing it
 * holds can clear the screen, set the window title, print a link, erase the line above, or
 * reorder what follows.
 */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
}

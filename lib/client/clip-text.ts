// The cards' own (permission and approval), apart from ./permission-summary.ts, which the inbox carries too.

/** What a card shows of a tool's input before "show all" (R12.3): a screenful, fast to lay out. */
export const PERMISSION_PREVIEW_CHARS = 4_000;
export const PERMISSION_PREVIEW_LINES = 120;

/** The start of `text` that a card shows at first, or the whole text when it is short. */
export function clipPermissionText(text: string): { shown: string; clipped: boolean } {
  const head = text.slice(0, PERMISSION_PREVIEW_CHARS).split('\n').slice(0, PERMISSION_PREVIEW_LINES).join('\n');
  return head.length >= text.length ? { shown: text, clipped: false } : { shown: `${head}\n…`, clipped: true };
}

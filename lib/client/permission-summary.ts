/** A readable one-glance summary of a tool call's input for a permission prompt. */
export interface PermissionSummary {
  kind: 'command' | 'file' | 'input';
  text: string;
  /** Description the tool call gave itself, when any (e.g. Bash's `description`). */
  description?: string;
}

const FILE_KEYS = ['file_path', 'notebook_path', 'path'];

export function summarizePermission(toolName: string, input: Record<string, unknown>): PermissionSummary {
  const description = typeof input.description === 'string' ? input.description : undefined;
  const withDescription = (summary: PermissionSummary): PermissionSummary =>
    description === undefined ? summary : { ...summary, description };
  if (typeof input.command === 'string') return withDescription({ kind: 'command', text: input.command });
  for (const key of FILE_KEYS) {
    const value = input[key];
    if (typeof value === 'string') return withDescription({ kind: 'file', text: value });
  }
  if (toolName === 'WebFetch' && typeof input.url === 'string')
    return withDescription({ kind: 'input', text: input.url });
  return { kind: 'input', text: JSON.stringify(input, null, 2) };
}

/** What a card shows of a tool's input before "show all" (R12.3): a screenful, fast to lay out. */
export const PERMISSION_PREVIEW_CHARS = 4_000;
export const PERMISSION_PREVIEW_LINES = 120;

/** The start of `text` that a card shows at first, or the whole text when it is short. */
export function clipPermissionText(text: string): { shown: string; clipped: boolean } {
  const head = text.slice(0, PERMISSION_PREVIEW_CHARS).split('\n').slice(0, PERMISSION_PREVIEW_LINES).join('\n');
  return head.length >= text.length ? { shown: text, clipped: false } : { shown: `${head}\n…`, clipped: true };
}

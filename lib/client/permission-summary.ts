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

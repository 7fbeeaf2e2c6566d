import { errorMessage } from '../contracts';
import './zod-locale';

/** The parts of a zod issue needed to explain it; kept structural so any zod version fits. */
export interface IssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** `questions[0].options[1].label` for a path; `(root)` for the empty path. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += text === '' ? String(part) : `.${String(part)}`;
  }
  return text === '' ? '(root)' : text;
}

/** One line naming every broken rule and where, for error texts the model reads. */
export function formatIssues(issues: readonly IssueLike[]): string {
  return issues.map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`).join('; ');
}

/** True for the rejection of an aborted operation (DOMException or Error named AbortError). */
export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

/** The error an aborted operation rejects with. */
export function abortError(reason?: unknown): Error {
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const message =
    reason === undefined ? 'The operation was aborted' : `The operation was aborted: ${errorMessage(reason)}`;
  return new DOMException(message, 'AbortError');
}

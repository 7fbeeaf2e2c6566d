// Reading values typed `unknown` (parsed JSON, caught errors). No imports: the service worker,
// which must not bundle zod, imports this file directly.

/** A plain object (not null, not an array) whose keys can be read. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What was thrown, as text a person or the model can read: never "[object Object]" or "undefined". */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return 'unknown error';
}

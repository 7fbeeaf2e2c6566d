import { type ServerResponse } from 'node:http';
import { type ApiError } from '../../contracts';
import { sendJson } from '../../http/http-replies';

/** `{error: {code, message}}` with a status: how the pairing and admin APIs refuse. */
export function sendApiError(
  res: ServerResponse,
  status: number,
  code: ApiError['error']['code'],
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { error: { code, message } } satisfies ApiError, headers);
}

/** "10 minutes", "90 seconds", "1 hour". */
export function describeTtl(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds % 3600 === 0) return plural(seconds / 3600, 'hour');
  if (seconds % 60 === 0) return plural(seconds / 60, 'minute');
  return plural(seconds, 'second');
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

// What the plugin passes on of an OpenCode event (R18.21, R19.30). Zod-free, as the plugin is: it runs inside OpenCode,
// bundled into one file. The bridge checks what arrives all the same (bridge-messages.ts).
import { FORWARDED_EVENTS } from './bridge-protocol';

const FORWARDED: ReadonlySet<string> = new Set(FORWARDED_EVENTS);
/** What a forwarded error's message keeps: a failed turn's reason on the card is shorter still. */
export const FORWARDED_ERROR_MAX = 2_000;

export interface ForwardedEvent {
  type: string;
  properties: unknown;
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** `{name, data: {message}}` of an error, its message clipped; nothing else (an API error carries the whole answer). */
function slimError(value: unknown): { name?: string; data: { message?: string } } | undefined {
  if (value === undefined || value === null) return undefined;
  const error = record(value);
  const message = text(record(error.data).message);
  return {
    ...(text(error.name) !== undefined ? { name: text(error.name) } : {}),
    data: message === undefined ? {} : { message: message.slice(0, FORWARDED_ERROR_MAX) },
  };
}

/**
 * The event as the bridge gets it, or undefined when it is not one the bridge follows. A `message.updated` keeps
 * only the fields a finished turn reads (ids, role, its turn's prompt, how it ended).
 */
export function forwardedEvent(event: { type: string; properties?: unknown }): ForwardedEvent | undefined {
  if (!FORWARDED.has(event.type)) return undefined;
  if (event.type !== 'message.updated') return { type: event.type, properties: event.properties ?? {} };
  const info = record(record(event.properties).info);
  const error = slimError(info.error);
  const kept: Record<string, unknown> = {};
  for (const key of ['id', 'sessionID', 'role', 'parentID', 'finish'] as const)
    if (text(info[key]) !== undefined) kept[key] = text(info[key]);
  return { type: event.type, properties: { info: { ...kept, ...(error ? { error } : {}) } } };
}

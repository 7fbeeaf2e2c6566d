// The bridge's check of what the plugin writes (bridge-protocol.ts): a line that is not one of these is
// logged and dropped, never acted on.
import * as z from 'zod/mini';
import { parseBoundedJson } from '../../../contracts/json-shape';
import { type PluginMessage } from './bridge-protocol';

const instance = z.int().check(z.positive());

export const PluginMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('hello'),
    protocol: z.int(),
    instance,
    directory: z.string().check(z.maxLength(4_096)),
    opencode: z.optional(z.string()),
  }),
  z.object({
    type: z.literal('event'),
    instance,
    event: z.object({ type: z.string(), properties: z.unknown() }),
  }),
  z.object({
    type: z.literal('response'),
    id: z.int(),
    status: z.int(),
    data: z.optional(z.unknown()),
    error: z.optional(z.unknown()),
  }),
  z.object({ type: z.literal('bye'), instance }),
]);

/**
 * The message a line holds, or why it is not one. Its depth and size are checked before zod or anything else
 * walks it (BRIDGE_MESSAGE_SHAPE_LIMITS, R12.18): the plugin passes on what OpenCode answered as it came.
 */
export function parsePluginLine(line: string): { message: PluginMessage } | { problem: string } {
  const raw = parseBoundedJson(line);
  if (!raw.ok) return { problem: raw.problem };
  const parsed = PluginMessageSchema.safeParse(raw.value);
  if (!parsed.success)
    return {
      problem: parsed.error.issues
        .map((issue) => issue.message.slice(0, 200))
        .join('; ')
        .slice(0, 1_000),
    };
  return { message: parsed.data as PluginMessage };
}

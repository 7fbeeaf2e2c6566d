// The plugin ↔ bridge protocol (R18.21): one JSON object per line, the plugin writing to the bridge's stdin
// and reading its stdout. Zod-free, because the plugin is built from this file's types and constants into
// one self-contained file (plugin.ts); the bridge checks what it reads with bridge-messages.ts.

/**
 * Bumped when a message changes; the bridge names a plugin from another Askaway version in its log. 2: the plugin
 * forwards `message.updated` (finished turns, R19.30), without which a turn's end is no card.
 */
export const BRIDGE_PROTOCOL = 2;

/**
 * The events the plugin forwards: the prompts, their answers, what ends a session's turn, and each message's `info`
 * (only the fields forwardedEvent keeps: a user message's `info` may hold whole files in its summary's diffs).
 */
export const FORWARDED_EVENTS = [
  'question.asked',
  'question.replied',
  'question.rejected',
  'permission.asked',
  'permission.replied',
  'session.idle',
  'session.error',
  'session.deleted',
  'message.updated',
] as const;

/** Plugin → bridge. `instance` numbers the plugin's directory instances in one OpenCode process. */
export type PluginMessage =
  | { type: 'hello'; protocol: number; instance: number; directory: string; opencode?: string }
  | { type: 'event'; instance: number; event: { type: string; properties: unknown } }
  /** The answer to a request; `status` 0 when it could not be sent at all (`error` says why). */
  | { type: 'response'; id: number; status: number; data?: unknown; error?: unknown }
  /** The directory instance was disposed (OpenCode closed it, or is exiting). */
  | { type: 'bye'; instance: number };

/** Bridge → plugin: an HTTP call to OpenCode, made with that instance's own client (its directory). */
export interface BridgeRequest {
  type: 'request';
  id: number;
  instance: number;
  method: 'GET' | 'POST';
  /** A path such as `/question/que_…/reply`. */
  url: string;
  body?: unknown;
}
export type BridgeMessage = BridgeRequest;

/** What the plugin is told at install time (written into the installed file). */
export interface PluginOptions {
  /** The shell command that starts the bridge, `askaway opencode bridge` unless `--command` says otherwise. */
  command: string;
  /** The Askaway version that wrote the file. */
  version: string;
}

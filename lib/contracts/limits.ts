// Zod-free, so the PWA's first screen (and the service worker) can import these without the schemas.

/**
 * The runtime namespace's version: bumped on any incompatible change of its messages (wire.ts); checked at connect.
 * 2: agents (R18): `agent` on an announce, the approval and form kinds, `terminalAnswer` on a withdraw,
 *    `context.agentDeadlineAt`, `context.openInTerminal` and `context.movesToTerminalAt`.
 * 3: finished turns (R19): the `finished-turn` kind and `reply` in an accept's content.
 */
export const PROTOCOL_VERSION = 3;
/**
 * The remote namespace's version, bumped apart from the runtimes' so agents keep working across
 * a change they do not see. 2: device credentials, `resume` with a log id, devices in the snapshot.
 * 3: machines (R17): `machine` on every interaction, host-unique ids, `machines` in the snapshot and live.
 * 4: bounded snapshots (R12.7): a page of pending interactions with their total, `pending:more` for the rest.
 * 5: agents (R18): `agent` on every interaction, the approval and form kinds, secret answers masked, and
 * `terminalAnswer` on an interaction the agent's terminal answered first.
 * 6: `notifyDelayMs` in preferences ("Notify my phone", R14.7), `context.agentDeadlineAt` (R18.11), `context.movesToTerminalAt`
 * (R11.11).
 * 7: `interaction.reopened`: a secret answer the host restarted before delivering is asked again (R12.13).
 * 8: finished turns (R19): the `finished-turn` kind, `reply` in an accept's content, `notifyFinishedTurns` in preferences.
 * 9: `away` in preferences (R19.50) and `noReply` on a finished turn's input.
 */
export const REMOTE_PROTOCOL_VERSION = 9;

/** Bounds on identifiers and free text carried by interactions (R12.3). */
export const ID_MAX = 200;
export const CONTEXT_MESSAGE_MAX = 8_000;
export const DECLINE_MESSAGE_MAX = 2_000;
export const PLAN_MAX = 100_000;
export const PERMISSION_INPUT_MAX_JSON = 20_000;

/** Interactions one machine may have waiting at once (R12.7); `askaway start --max-pending` changes it. */
export const DEFAULT_MAX_PENDING_PER_MACHINE = 500;
/**
 * What one runtime connection may hold of its machine's --max-pending (R12.17): half, so one agent's flood
 * (a bridge, an MCP server) leaves the machine's other agents room. At least one.
 */
export const CONNECTION_PENDING_SHARE = 0.5;
/**
 * Prompts an agent bridge carries to the phone at once from one Codex daemon or one OpenCode process (R12.17);
 * any more stay in that agent's terminal.
 */
export const BRIDGE_PROMPTS_MAX = 100;
/** Prompt ids a bridge remembers as settled or left to the terminal; the oldest are forgotten first (R12.17). */
export const BRIDGE_SETTLED_IDS_KEPT = 2_000;
/**
 * The largest message a bridge reads from another program (R12.19): Codex's own handshake announces 16 MiB
 * frames, so a bigger one is refused (its connection with it) before it is parsed.
 */
export const BRIDGE_FRAME_MAX_BYTES = 16 * 1024 * 1024;
/**
 * Threads a Codex bridge remembers per daemon connection (title, folder, version, joined or not), each field
 * clipped to what a card shows; the oldest are forgotten first (R12.19). A person runs a few at a time.
 */
export const BRIDGE_THREADS_KEPT = 1_000;
/**
 * File changes a Codex bridge holds until their approval comes (`item/started` announces the diff, the request
 * carries none), by item and by characters kept, each item cut to what its card shows; the oldest go first (R12.19).
 */
export const BRIDGE_FILE_CHANGES_KEPT = BRIDGE_PROMPTS_MAX;
export const BRIDGE_FILE_CHANGES_MAX_CHARS = 8 * 1024 * 1024;
/**
 * Requests a bridge has waiting on another program at once (joining threads it announced, reading them); more
 * fail at once rather than each holding a timer and an entry until the program answers (R12.19).
 */
export const BRIDGE_REQUESTS_IN_FLIGHT_MAX = 1_000;
/** What a snapshot (or a `pending:more` page) carries of the pending interactions at most, by count and JSON size (R12.7). */
export const PENDING_PAGE_MAX = 1_000;
export const PENDING_PAGE_MAX_BYTES = 2 * 1024 * 1024;
/** What a snapshot carries of history at most, by JSON size (its count is the host's history limit). */
export const HISTORY_PAGE_MAX_BYTES = 1024 * 1024;

/** Bounds that keep a single tool call from growing a host's memory (R12.3). */
export const ASK_USER_QUESTION_MAX_TEXT = 2_000;
export const ASK_USER_QUESTION_MAX_PREVIEW = 20_000;
export const ASK_USER_QUESTION_MAX_NOTES = 4_000;

/** What remotes get in place of a secret answer (R18.5). */
export const SECRET_ANSWER_MASK = '••••••';

/** Widest header the UI renders as a chip (R2.2). */
export const ASK_USER_QUESTION_TOOL_CHIP_WIDTH = 12;

/** A device's name as the person gave it at pairing (or later in Settings). */
export const DEVICE_NAME_MAX = 60;
/** What the app says it runs on, e.g. "iPhone · Safari". */
export const DEVICE_PLATFORM_MAX = 80;

/** Longest pairing code the host reads; real codes are 23 characters (4 groups of 5, with dashes). */
export const PAIRING_CODE_MAX = 64;

/** "Notify my phone": at once, or only for a question still waiting after this long (R14.7). */
export const NOTIFY_DELAYS_MS = [0, 30_000, 60_000, 5 * 60_000] as const;
export type NotifyDelayMs = (typeof NOTIFY_DELAYS_MS)[number];

/**
 * A finished turn (R19.1): the agent's last message the phone gets, at most this many characters (the runtime clips it
 * before announcing and says so), the reason a failed turn gives, and the longest reply the phone sends back (R19.4).
 */
export const FINISHED_TURN_MESSAGE_MAX = 20_000;
export const FINISHED_TURN_ERROR_MAX = 2_000;
export const FINISHED_TURN_REPLY_MAX = 10_000;

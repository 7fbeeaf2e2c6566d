// How interactions of several machines share one host without mixing (R17.4). Only zod-free imports: the
// service worker and every layer may take it.
import { stripUnsafeCharacters } from './text-safety';

/** The hub's own machine: its agents hold the agent token (`<dataDir>/token`), not a machine credential. */
export const LOCAL_MACHINE_ID = 'local';

/** A joined machine's id: 16 lowercase hex characters, the id part of its `aw_m_<id>_<secret>` credential. */
export const JOINED_MACHINE_ID_PATTERN = /^[0-9a-f]{16}$/;

/** What a joined machine's keys start with: its id and a colon. */
const JOINED_KEY_PREFIX = /^[0-9a-f]{16}:/;
const JOINED_PREFIX_LENGTH = 17;

/**
 * The host's id of an interaction (R17.4): the runtime's own request id for the hub's agents (so
 * logs and links from before machines keep their ids), `<machine id>:<request id>` for a joined
 * machine's. Two machines may use the same request id; their keys differ. Remotes (respond, push
 * tags, card links) and the log use the key; each runtime keeps seeing its own ids.
 */
export function interactionKey(machineId: string, runtimeRequestId: string): string {
  return machineId === LOCAL_MACHINE_ID ? runtimeRequestId : `${machineId}:${runtimeRequestId}`;
}

/** The runtime's own request id inside a key made by `interactionKey` for this machine. */
export function runtimeRequestIdOf(machineId: string, key: string): string {
  return machineId === LOCAL_MACHINE_ID ? key : key.slice(JOINED_PREFIX_LENGTH);
}

/**
 * Whether the hub's own agents may use this request id: not one shaped like a joined machine's
 * key, which would make the keys of two machines meet. Real ids (tool use ids, UUIDs) never are.
 */
export function isReservedLocalRequestId(runtimeRequestId: string): boolean {
  return JOINED_KEY_PREFIX.test(runtimeRequestId);
}

/** How much longer a key may be than the runtime's request id. */
export const INTERACTION_KEY_EXTRA = JOINED_PREFIX_LENGTH;

/** Longest machine name (MACHINE_NAME_MAX, repeated here so this file needs no imports). */
const NAME_MAX = 64;

/**
 * A usable machine name from a host name or a flag: control characters dropped, spaces trimmed,
 * at most 64 characters; `fallback` when nothing is left.
 */
export function machineNameFrom(text: string | undefined, fallback = 'this computer'): string {
  // Controls, zero-width and bidi characters: a host name must not hide or reorder the name shown (R12.8).
  const cleaned = stripUnsafeCharacters(text ?? '').trim();
  return cleaned.length > 0 ? cleaned.slice(0, NAME_MAX).trim() : fallback;
}

/** The command `askaway invite` prints for the other machine (R17.1). */
export function joinCommand(hubUrl: string, code: string): string {
  return `askaway join ${hubUrl.replace(/\/+$/, '')} ${code}`;
}

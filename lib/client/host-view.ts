import { type DeviceRecord, type InteractionView, type MachineInfo, type Preferences } from '../contracts';

// Apart from ./reduce (which folds host events), so the first screen can hold a view without the fold.

/** The host's interactions as this remote knows them: a snapshot, then events folded in as the host folds them. */
export interface HostView {
  /** A live snapshot from the host has arrived on this page. */
  hasSnapshot: boolean;
  /** Showing what this device saw last time (offline start), until a live snapshot arrives. */
  cached: boolean;
  /** For a cached view: when this device last saw it live (ISO time, its own clock); null when unknown. */
  seenAt: string | null;
  lastSeq: number;
  /** The log `lastSeq` counts in; resuming against another log gets a snapshot (R10.6). */
  logId: string | null;
  interactions: ReadonlyMap<string, InteractionView>;
  preferences: Preferences | null;
  hostVersion: string | null;
  hostName: string | null;
  /** Paired devices by id; revoked ones keep a record with `revokedAt` (R16.4). */
  devices: ReadonlyMap<string, DeviceRecord>;
  /**
   * The hub and its joined machines with their agents connected now (R17.5): the snapshot's list,
   * then each `machines` message replaces it whole. Empty until the host has sent one.
   */
  machines: readonly MachineInfo[];
  /** serverTime − local time when the snapshot arrived (clock-skew correction, R9.9). */
  clockOffsetMs: number;
  /** How many interactions wait on the host in all, loaded here or not (R12.7); 0 until the host says. */
  pendingTotal: number;
  /** Where the next page of pending interactions starts (`pending:more`); null when all are loaded. */
  pendingCursor: number | null;
}

export const EMPTY_HOST_VIEW: HostView = {
  hasSnapshot: false,
  cached: false,
  seenAt: null,
  lastSeq: 0,
  logId: null,
  interactions: new Map(),
  preferences: null,
  hostVersion: null,
  hostName: null,
  devices: new Map(),
  machines: [],
  clockOffsetMs: 0,
  pendingTotal: 0,
  pendingCursor: null,
};

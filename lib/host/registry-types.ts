import {
  type AutoResolutionNotice,
  type HostEvent,
  type InteractionView,
  type ResolvedNotice,
  type WireError,
} from '../contracts';

/** Where the resolution of an interaction goes: the runtime socket that last announced it. */
export interface RuntimeRoute {
  socketId: string;
  protocolRequestId: string;
  /** The id that runtime knows the request by (R17.4). */
  runtimeRequestId: string;
  machineId: string;
}

/** How the registry reaches runtimes; the runtime namespace implements it. */
export interface RuntimeNotifier {
  resolved(socketId: string, notice: ResolvedNotice): void;
  autoResolution(socketId: string, notice: AutoResolutionNotice): void;
}

/** One human-relevant change, for the terminal. */
export type LifecycleEvent =
  | { type: 'requested'; view: InteractionView }
  | { type: 'resolved'; view: InteractionView }
  | { type: 'withdrawn'; view: InteractionView }
  | { type: 'delivered'; view: InteractionView }
  | { type: 'reopened'; view: InteractionView };

export type EventListener = (events: readonly HostEvent[]) => void;

/** The `{ok: false, error}` branch every ack shares. */
export function failure(code: WireError['code'], message: string): { ok: false; error: WireError } {
  return { ok: false, error: { code, message } };
}

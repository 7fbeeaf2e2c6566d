import {
  type AutoResolutionState,
  type InteractionResolution,
  type InteractionResponse,
  type NewHostEvent,
  type Preferences,
  type UserInputAutoResolutionUpdated,
} from '../contracts';

/** The preferences auto-resolution depends on (R6.1). */
export type AutoResolutionPreferences = Pick<
  Preferences,
  'askUserQuestionAutoResolutionEnabled' | 'askUserQuestionAutoResolutionTimeoutMs'
>;

/** Every change after registration goes through this callback (R6.2). */
export interface AutoResolutionCallbacks {
  onAutoResolutionUpdated(state: AutoResolutionState): void;
}

export const AUTO_RESOLUTION_DISABLED: AutoResolutionState = Object.freeze({ status: 'disabled' });

function toIso(time: Date | string): string {
  const date = typeof time === 'string' ? new Date(time) : time;
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) throw new RangeError(`Invalid time: ${String(time)}`);
  return date.toISOString();
}

function isValidTimeout(timeoutMs: unknown): timeoutMs is number {
  return typeof timeoutMs === 'number' && Number.isInteger(timeoutMs) && timeoutMs > 0;
}

function schedule(timeoutMs: number, now: Date): AutoResolutionState {
  return {
    status: 'scheduled',
    timeoutMs,
    scheduledAt: now.toISOString(),
    deadlineAt: new Date(now.getTime() + timeoutMs).toISOString(),
  };
}

/** The state an interaction is registered with: an absolute deadline, or disabled (R6.2). */
export function initialAutoResolution(preferences: AutoResolutionPreferences, now: Date): AutoResolutionState {
  const timeoutMs = preferences?.askUserQuestionAutoResolutionTimeoutMs;
  const validNow = now instanceof Date && !Number.isNaN(now.getTime());
  if (preferences?.askUserQuestionAutoResolutionEnabled !== true || !isValidTimeout(timeoutMs) || !validNow) {
    return AUTO_RESOLUTION_DISABLED;
  }
  return schedule(timeoutMs, now);
}

/**
 * The state after preferences change. Returns `current` itself when nothing
 * changed, so callers fire `onAutoResolutionUpdated` only on `next !== current`.
 * A newly enabled or re-timed schedule counts from `now`.
 */
export function recomputeAutoResolution(
  current: AutoResolutionState,
  preferences: AutoResolutionPreferences,
  now: Date,
): AutoResolutionState {
  const next = initialAutoResolution(preferences, now);
  if (next.status === 'disabled') return current?.status === 'disabled' ? current : next;
  if (current?.status === 'scheduled' && current.timeoutMs === next.timeoutMs) return current;
  return next;
}

export function autoResolutionStatesEqual(a: AutoResolutionState, b: AutoResolutionState): boolean {
  if (a.status === 'disabled' || b.status === 'disabled') return a.status === b.status;
  return a.timeoutMs === b.timeoutMs && a.scheduledAt === b.scheduledAt && a.deadlineAt === b.deadlineAt;
}

/** Milliseconds until the deadline (≤ 0 when due), or null when disabled. */
export function msUntilAutoResolution(state: AutoResolutionState, now: Date): number | null {
  if (state?.status !== 'scheduled') return null;
  const remaining = Date.parse(state.deadlineAt) - now.getTime();
  return Number.isNaN(remaining) ? null : remaining;
}

export function isAutoResolutionDue(state: AutoResolutionState, now: Date): boolean {
  const remaining = msUntilAutoResolution(state, now);
  return remaining !== null && remaining <= 0;
}

/** The durable record of a change (R6.3), before the store assigns its seq. */
export function autoResolutionUpdatedEvent(
  requestId: string,
  state: AutoResolutionState,
  at: Date | string,
): Omit<UserInputAutoResolutionUpdated, 'seq'> & NewHostEvent {
  return { type: 'UserInputAutoResolutionUpdated', at: toIso(at), requestId, autoResolution: state };
}

/** R6.4: auto-resolution accepts with no answers, which the model reads as the R4.3 text. */
export const AUTO_RESOLUTION_RESPONSE: InteractionResponse = Object.freeze({
  action: 'accept',
  content: Object.freeze({ answers: Object.freeze({}) }),
}) as InteractionResponse;

/** The resolution recorded when the deadline passes (R6.4). */
export function autoResolutionResolution(requestId: string, at: Date | string): InteractionResolution {
  return {
    requestId,
    response: { action: 'accept', content: { answers: {} } },
    resolvedBy: 'auto',
    resolvedAt: toIso(at),
  };
}

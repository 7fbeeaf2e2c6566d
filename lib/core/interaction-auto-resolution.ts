import { type AutoResolutionState, type InteractionResolution, type Preferences } from '../contracts';

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
  const timeoutMs = preferences.askUserQuestionAutoResolutionTimeoutMs;
  const usable = Number.isInteger(timeoutMs) && timeoutMs > 0 && !Number.isNaN(now.getTime());
  if (!preferences.askUserQuestionAutoResolutionEnabled || !usable) return AUTO_RESOLUTION_DISABLED;
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
  if (next.status === 'disabled') return current.status === 'disabled' ? current : next;
  if (current.status === 'scheduled' && current.timeoutMs === next.timeoutMs) return current;
  return next;
}

/** True once a scheduled deadline has come (R6.4); a disabled state is never due. */
export function isAutoResolutionDue(state: AutoResolutionState, now: Date): boolean {
  return state.status === 'scheduled' && Date.parse(state.deadlineAt) <= now.getTime();
}

/**
 * The resolution recorded when the deadline passes (R6.4): accept with no answers, which the
 * model reads as the R4.3 text.
 */
export function autoResolutionResolution(requestId: string, at: Date): InteractionResolution {
  return {
    requestId,
    response: { action: 'accept', content: { answers: {} } },
    resolvedBy: 'auto',
    resolvedAt: at.toISOString(),
  };
}

import { type AutoResolutionState, type InteractionKind, type Preferences } from '../contracts';

/**
 * The auto-resolution state an interaction should have now (R6.1, R6.2). Only
 * questions auto-resolve: skipping a question is safe, silently approving a plan
 * or a shell command is not.
 */
export function autoResolutionFor(kind: InteractionKind, preferences: Preferences, now: Date): AutoResolutionState {
  if (kind !== 'question' || !preferences.askUserQuestionAutoResolutionEnabled) return { status: 'disabled' };
  const timeoutMs = preferences.askUserQuestionAutoResolutionTimeoutMs;
  return {
    status: 'scheduled',
    timeoutMs,
    scheduledAt: now.toISOString(),
    deadlineAt: new Date(now.getTime() + timeoutMs).toISOString(),
  };
}

/**
 * After a preference change: the new state, or null when nothing changes. A
 * running countdown whose timeout stays the same keeps its deadline; any other
 * change restarts the countdown from now, so lowering the timeout never fires
 * a long-pending question the instant the setting is saved.
 */
export function nextAutoResolution(
  kind: InteractionKind,
  current: AutoResolutionState,
  preferences: Preferences,
  now: Date,
): AutoResolutionState | null {
  const wanted = autoResolutionFor(kind, preferences, now);
  if (wanted.status === 'disabled') return current.status === 'disabled' ? null : wanted;
  if (current.status === 'scheduled' && current.timeoutMs === wanted.timeoutMs) return null;
  return wanted;
}

/** Milliseconds until the deadline (never negative), or null when none is scheduled. */
export function msUntilDeadline(state: AutoResolutionState, now: Date): number | null {
  if (state.status !== 'scheduled') return null;
  return Math.max(0, Date.parse(state.deadlineAt) - now.getTime());
}

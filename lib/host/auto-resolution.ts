import { type AutoResolutionState, type InteractionKind, type Preferences } from '../contracts';
import { AUTO_RESOLUTION_DISABLED, initialAutoResolution, recomputeAutoResolution } from '../core';

/**
 * The auto-resolution state a new interaction gets (R6.1, R6.2). Only questions
 * auto-resolve: skipping a question is safe, silently approving a plan or a
 * shell command is not, and a finished turn simply stays finished, whatever the preference (R19.7).
 */
export function autoResolutionFor(kind: InteractionKind, preferences: Preferences, now: Date): AutoResolutionState {
  return kind === 'question' ? initialAutoResolution(preferences, now) : AUTO_RESOLUTION_DISABLED;
}

/**
 * After a preference change: the new state, or null when nothing changes. A
 * running countdown whose timeout stays the same keeps its deadline; any other
 * change restarts the countdown from now, so lowering the timeout never fires a
 * long-pending question the instant the setting is saved.
 */
export function nextAutoResolution(
  kind: InteractionKind,
  current: AutoResolutionState,
  preferences: Preferences,
  now: Date,
): AutoResolutionState | null {
  if (kind !== 'question') return current.status === 'disabled' ? null : AUTO_RESOLUTION_DISABLED;
  const next = recomputeAutoResolution(current, preferences, now);
  return next === current ? null : next;
}

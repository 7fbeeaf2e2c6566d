import * as z from 'zod/mini';
import { NOTIFY_DELAYS_MS } from './limits';

export const AUTO_RESOLUTION_DEFAULT_TIMEOUT_MS = 10 * 60_000;
export const AUTO_RESOLUTION_MIN_TIMEOUT_MS = 1_000;
export const AUTO_RESOLUTION_MAX_TIMEOUT_MS = 24 * 60 * 60_000;

// The delays the Settings page offers (zod-free, in limits.ts), no other.
const NotifyDelaySchema = z.literal(NOTIFY_DELAYS_MS);

const autoResolutionEnabled = z.boolean();
const autoResolutionTimeoutMs = z
  .int()
  .check(z.minimum(AUTO_RESOLUTION_MIN_TIMEOUT_MS), z.maximum(AUTO_RESOLUTION_MAX_TIMEOUT_MS));

/** Host-wide preferences, durable and synced to every remote at once (R6.1). */
export const PreferencesSchema = z.strictObject({
  askUserQuestionAutoResolutionEnabled: autoResolutionEnabled,
  askUserQuestionAutoResolutionTimeoutMs: autoResolutionTimeoutMs,
  // Preferences logged before this setting existed read as today's behaviour.
  notifyDelayMs: z._default(NotifyDelaySchema, 0),
  /** Notify when an agent finishes its turn (R19.9); on unless switched off, questions are notified either way. */
  notifyFinishedTurns: z._default(z.boolean(), true),
  /**
   * The person is away from their desk (R19.50): Claude Code then holds each finished turn for a reply from the
   * phone. Off unless switched on, from the phone or `askaway away`.
   */
  away: z._default(z.boolean(), false),
});
export type Preferences = z.infer<typeof PreferencesSchema>;

// Not z.partial(PreferencesSchema): that would fill a default into every patch and undo the setting.
export const PreferencesPatchSchema = z.partial(
  z.strictObject({
    askUserQuestionAutoResolutionEnabled: autoResolutionEnabled,
    askUserQuestionAutoResolutionTimeoutMs: autoResolutionTimeoutMs,
    notifyDelayMs: NotifyDelaySchema,
    notifyFinishedTurns: z.boolean(),
    away: z.boolean(),
  }),
);
export type PreferencesPatch = z.infer<typeof PreferencesPatchSchema>;

export const DEFAULT_PREFERENCES: Preferences = {
  askUserQuestionAutoResolutionEnabled: false,
  askUserQuestionAutoResolutionTimeoutMs: AUTO_RESOLUTION_DEFAULT_TIMEOUT_MS,
  notifyDelayMs: 0,
  notifyFinishedTurns: true,
  away: false,
};

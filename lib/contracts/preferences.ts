import * as z from 'zod/mini';

export const AUTO_RESOLUTION_DEFAULT_TIMEOUT_MS = 10 * 60_000;
export const AUTO_RESOLUTION_MIN_TIMEOUT_MS = 1_000;
export const AUTO_RESOLUTION_MAX_TIMEOUT_MS = 24 * 60 * 60_000;

/** Host-wide preferences, durable and synced to every remote at once (R6.1). */
export const PreferencesSchema = z.strictObject({
  askUserQuestionAutoResolutionEnabled: z.boolean(),
  askUserQuestionAutoResolutionTimeoutMs: z
    .int()
    .check(z.minimum(AUTO_RESOLUTION_MIN_TIMEOUT_MS), z.maximum(AUTO_RESOLUTION_MAX_TIMEOUT_MS)),
});
export type Preferences = z.infer<typeof PreferencesSchema>;

export const PreferencesPatchSchema = z.partial(PreferencesSchema);
export type PreferencesPatch = z.infer<typeof PreferencesPatchSchema>;

export const DEFAULT_PREFERENCES: Preferences = {
  askUserQuestionAutoResolutionEnabled: false,
  askUserQuestionAutoResolutionTimeoutMs: AUTO_RESOLUTION_DEFAULT_TIMEOUT_MS,
};

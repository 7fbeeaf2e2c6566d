import { describe, expect, it } from 'vitest';
import { PreferencesPatchSchema, PreferencesSchema } from './preferences';

describe('preferences', () => {
  it('[R14.7] preferences logged before "Notify my phone" existed read as "at once"', () => {
    const old = { askUserQuestionAutoResolutionEnabled: true, askUserQuestionAutoResolutionTimeoutMs: 60_000 };
    expect(PreferencesSchema.parse(old)).toEqual({ ...old, notifyDelayMs: 0, notifyFinishedTurns: true, away: false });
  });

  it('[R19.9] finished turns are notified unless switched off; a patch may switch them', () => {
    const old = { askUserQuestionAutoResolutionEnabled: false, askUserQuestionAutoResolutionTimeoutMs: 60_000 };
    expect(PreferencesSchema.parse({ ...old, notifyDelayMs: 0 }).notifyFinishedTurns).toBe(true);
    expect(PreferencesPatchSchema.parse({ notifyFinishedTurns: false })).toEqual({ notifyFinishedTurns: false });
    expect(PreferencesPatchSchema.safeParse({ notifyFinishedTurns: 'no' }).success).toBe(false);
  });

  it('[R14.7] a patch carries only what it names, and only an offered delay', () => {
    expect(PreferencesPatchSchema.parse({ askUserQuestionAutoResolutionEnabled: false })).toEqual({
      askUserQuestionAutoResolutionEnabled: false,
    });
    expect(PreferencesPatchSchema.parse({ notifyDelayMs: 300_000 })).toEqual({ notifyDelayMs: 300_000 });
    for (const notifyDelayMs of [1, 45_000, -30_000, '30000', null])
      expect(PreferencesPatchSchema.safeParse({ notifyDelayMs }).success).toBe(false);
  });
});

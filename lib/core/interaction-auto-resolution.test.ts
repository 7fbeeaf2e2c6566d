import { describe, expect, it } from 'vitest';
import { AutoResolutionStateSchema, InteractionResolutionSchema } from '../contracts';
import {
  autoResolutionResolution,
  initialAutoResolution,
  isAutoResolutionDue,
  recomputeAutoResolution,
} from './interaction-auto-resolution';

const on = (timeoutMs = 60_000) => ({
  askUserQuestionAutoResolutionEnabled: true,
  askUserQuestionAutoResolutionTimeoutMs: timeoutMs,
});
const off = { askUserQuestionAutoResolutionEnabled: false, askUserQuestionAutoResolutionTimeoutMs: 60_000 };
const t0 = new Date('2030-01-01T00:00:00.000Z');
const later = (ms: number) => new Date(t0.getTime() + ms);

describe('auto-resolution state', () => {
  it('[R6.2] registers with an absolute deadline when enabled', () => {
    const state = initialAutoResolution(on(), t0);
    expect(state).toEqual({
      status: 'scheduled',
      timeoutMs: 60_000,
      scheduledAt: '2030-01-01T00:00:00.000Z',
      deadlineAt: '2030-01-01T00:01:00.000Z',
    });
    expect(AutoResolutionStateSchema.safeParse(state).success).toBe(true);
  });

  it('[R6.2] registers as disabled when off, or when the timeout or clock is unusable', () => {
    expect(initialAutoResolution(off, t0)).toEqual({ status: 'disabled' });
    expect(initialAutoResolution(on(0), t0)).toEqual({ status: 'disabled' });
    expect(initialAutoResolution(on(1.5), t0)).toEqual({ status: 'disabled' });
    expect(initialAutoResolution(on(), new Date('nope'))).toEqual({ status: 'disabled' });
  });

  it('[R6.2] recompute keeps the same object when nothing changed', () => {
    const scheduled = initialAutoResolution(on(), t0);
    expect(recomputeAutoResolution(scheduled, on(), later(5_000))).toBe(scheduled);
    const disabled = initialAutoResolution(off, t0);
    expect(recomputeAutoResolution(disabled, off, later(5_000))).toBe(disabled);
  });

  it('[R6.2] recompute schedules from now when enabled or re-timed, and disables when turned off', () => {
    const disabled = initialAutoResolution(off, t0);
    const enabled = recomputeAutoResolution(disabled, on(), later(10_000));
    expect(enabled).toMatchObject({ status: 'scheduled', deadlineAt: '2030-01-01T00:01:10.000Z' });
    const retimed = recomputeAutoResolution(enabled, on(120_000), later(20_000));
    expect(retimed).toMatchObject({ scheduledAt: '2030-01-01T00:00:20.000Z', deadlineAt: '2030-01-01T00:02:20.000Z' });
    expect(recomputeAutoResolution(retimed, off, later(30_000))).toEqual({ status: 'disabled' });
  });

  it('[R6.2] tells when the deadline is due', () => {
    const state = initialAutoResolution(on(), t0);
    expect(isAutoResolutionDue(state, later(59_999))).toBe(false);
    expect(isAutoResolutionDue(state, later(60_000))).toBe(true);
    expect(isAutoResolutionDue({ status: 'disabled' }, later(1e9))).toBe(false);
  });

  it('[R6.4] resolves as accept with answers: {} by auto', () => {
    const resolution = autoResolutionResolution('req-1', later(60_000));
    expect(InteractionResolutionSchema.parse(resolution)).toMatchObject({
      response: { action: 'accept', content: { answers: {} } },
      resolvedBy: 'auto',
      resolvedAt: '2030-01-01T00:01:00.000Z',
    });
  });
});

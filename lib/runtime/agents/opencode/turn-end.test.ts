import { describe, expect, it } from 'vitest';
import { FINISHED_TURN_ERROR_MAX } from '../../../contracts';
import { isNewer, keptError, saidIn, turnEnd } from './turn-end';

describe('[R19.30][R19.34] how an OpenCode turn ended and what it said', () => {
  it('[R19.34] an abort is an interruption; another error a failure with OpenCode’s message, else its name', () => {
    expect(turnEnd(undefined)).toEqual({ status: 'completed' });
    expect(turnEnd({ name: 'MessageAbortedError', data: { message: 'Aborted' } })).toEqual({ status: 'interrupted' });
    expect(turnEnd({ name: 'APIError', data: { message: ' E2E model refused ' } })).toEqual({
      status: 'failed',
      error: 'E2E model refused',
    });
    expect(turnEnd({ name: 'ProviderAuthError' })).toEqual({ status: 'failed', error: 'ProviderAuthError' });
  });

  it('[R19.35] only the name and the clipped message of an error are kept, not the answer it carries', () => {
    const kept = keptError({
      name: 'APIError',
      data: { message: 'm'.repeat(100_000), responseBody: 'b'.repeat(100_000) },
    } as Parameters<typeof keptError>[0]);
    expect(kept).toEqual({ name: 'APIError', data: { message: 'm'.repeat(FINISHED_TURN_ERROR_MAX) } });
  });

  it('[R19.30] the text the model said, without what OpenCode added itself, tools and reasoning', () => {
    const said = saidIn({
      info: { id: 'msg_1', sessionID: 'ses_1', role: 'assistant' },
      parts: [
        { type: 'step-start' },
        { type: 'reasoning', text: 'thinking' },
        { type: 'text', text: 'First.' },
        { type: 'tool', text: 'ignored' },
        { type: 'text', text: 'added by OpenCode', synthetic: true },
        { type: 'text', text: '   ' },
        { type: 'text', text: 'Second.' },
      ],
    });
    expect(said).toBe('First.\n\nSecond.');
  });

  it('[R19.33] OpenCode’s message ids order by age', () => {
    expect(isNewer('msg_2500e4d2b0016UOtCuUNoRcBNP', 'msg_2500e1158001ZZ7bTJmY615tvr')).toBe(true);
    expect(isNewer('msg_2500e1138001zS87L1h35R2od0', 'msg_2500e1158001ZZ7bTJmY615tvr')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { LogContendedError } from '../log-contended-error';
import { StorageUnavailableError } from '../store/storage-health';
import { failureFor } from './message-guard';

describe('failureFor', () => {
  it('[R20.3] a log other hub processes kept moving is answered like a full disk: nothing saved, try again', () => {
    const error = new LogContendedError(5);
    expect(failureFor(error)).toEqual({ ok: false, error: { code: 'storage-unavailable', message: error.message } });
    expect(error.message).toMatch(/Nothing of this request was saved; try again/);
  });

  it('[R12.6] a full disk says so; anything else is internal and names nothing of it', () => {
    expect(failureFor(new StorageUnavailableError('disk full'))).toEqual({
      ok: false,
      error: { code: 'storage-unavailable', message: 'disk full' },
    });
    expect(failureFor(new Error('secret detail'))).toEqual({
      ok: false,
      error: { code: 'internal', message: 'The host could not process this message' },
    });
  });
});

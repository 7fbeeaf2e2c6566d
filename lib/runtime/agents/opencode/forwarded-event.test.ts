import { describe, expect, it } from 'vitest';
import { FORWARDED_ERROR_MAX, forwardedEvent } from './forwarded-event';

describe('[R19.30] what the plugin passes on of an OpenCode event', () => {
  it('[R19.30] a message.updated keeps only what a finished turn reads: no summary with whole files in it', () => {
    const huge = 'x'.repeat(1_000_000);
    const forwarded = forwardedEvent({
      type: 'message.updated',
      properties: {
        sessionID: 'ses_1',
        info: {
          id: 'msg_2',
          sessionID: 'ses_1',
          role: 'user',
          time: { created: 1 },
          summary: { diffs: [{ file: 'a.txt', before: huge, after: huge }] },
          model: { providerID: 'p', modelID: 'm' },
        },
      },
    });
    expect(forwarded).toEqual({
      type: 'message.updated',
      properties: { info: { id: 'msg_2', sessionID: 'ses_1', role: 'user' } },
    });
    expect(JSON.stringify(forwarded).length).toBeLessThan(200);
  });

  it('[R19.34][R19.35] an assistant message keeps its turn, finish and error name, the error’s message clipped', () => {
    const forwarded = forwardedEvent({
      type: 'message.updated',
      properties: {
        info: {
          id: 'msg_3',
          sessionID: 'ses_1',
          role: 'assistant',
          parentID: 'msg_2',
          finish: 'stop',
          error: {
            name: 'APIError',
            data: { message: 'm'.repeat(10_000), responseBody: 'b'.repeat(100_000), statusCode: 400 },
          },
        },
      },
    });
    expect(forwarded).toEqual({
      type: 'message.updated',
      properties: {
        info: {
          id: 'msg_3',
          sessionID: 'ses_1',
          role: 'assistant',
          parentID: 'msg_2',
          finish: 'stop',
          error: { name: 'APIError', data: { message: 'm'.repeat(FORWARDED_ERROR_MAX) } },
        },
      },
    });
  });

  it('[R19.30] the session events pass as they are; the rest (parts, deltas, the TUI’s) stay in OpenCode', () => {
    expect(forwardedEvent({ type: 'session.idle', properties: { sessionID: 'ses_1' } })).toEqual({
      type: 'session.idle',
      properties: { sessionID: 'ses_1' },
    });
    expect(forwardedEvent({ type: 'session.deleted' })).toEqual({ type: 'session.deleted', properties: {} });
    for (const type of ['message.part.updated', 'message.part.delta', 'session.status', 'tui.prompt.append'])
      expect(forwardedEvent({ type, properties: {} })).toBeUndefined();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeAllClients, connectRuntime } from '../lib/host/test-support/clients';
import { questionRequest } from '../lib/host/test-support/fixtures';
import { closeAllHosts, startTestHost, TEST_TOKEN } from '../lib/host/test-support/test-host';
import { startConnection, stopConnection, submitResponse } from '../lib/client/connection';
import { getState, resetForTests, subscribe, type AnswerPhase } from '../lib/client/store';

// The PWA's connection module against a real host. Node has no IndexedDB, so the
// outbox lives in memory only here; that is the path private browsing takes too.
afterEach(async () => {
  stopConnection();
  resetForTests();
  closeAllClients();
  await closeAllHosts();
});

function recordPhases(requestId: string): AnswerPhase[] {
  const phases: AnswerPhase[] = [];
  subscribe(() => {
    const phase = getState().answers.get(requestId)?.phase;
    if (phase && phases[phases.length - 1] !== phase) phases.push(phase);
  });
  return phases;
}

describe('remote connection: answers reach the host', () => {
  it('[R9.8][R12.3] an answer refused as rate-limited while connected is retried without waiting for a reconnect', async () => {
    // One message at once, one more per second: the connect-time presence report empties the bucket.
    const host = await startTestHost({ rateLimits: { remote: { capacity: 1, refillPerSecond: 1 } } });
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const request = questionRequest();
    await runtime.socket.emitWithAck('announce', request);
    startConnection({ hostUrl: host.url, token: TEST_TOKEN, deviceId: 'phone', deviceLabel: 'Phone' });
    await vi.waitFor(() => expect(getState().host.interactions.get(request.requestId)?.status).toBe('pending'));

    const phases = recordPhases(request.requestId);
    await submitResponse(request.requestId, {
      action: 'accept',
      content: { answers: { 'Which database?': 'SQLite' } },
    });

    await vi.waitFor(() => expect(getState().answers.get(request.requestId)?.phase).toBe('accepted'), {
      timeout: 8_000,
    });
    // It really went through the refusal: sent, queued again, sent again.
    expect(phases.slice(0, 4)).toEqual(['queued', 'sending', 'queued', 'sending']);
    expect(getState().status).toBe('connected');
    await vi.waitFor(() => expect(runtime.resolved).toHaveLength(1));
  });

  it('[R10.4][R12.3] an answer the host could never accept fails at once, even offline, and sends nothing', async () => {
    const host = await startTestHost();
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const request = questionRequest();
    await runtime.socket.emitWithAck('announce', request);
    startConnection({ hostUrl: host.url, token: TEST_TOKEN, deviceId: 'phone', deviceLabel: 'Phone' });
    await vi.waitFor(() => expect(getState().host.interactions.get(request.requestId)?.status).toBe('pending'));

    // Over the 2,000-character answer limit (a long "Other" text joined with labels).
    await submitResponse(request.requestId, {
      action: 'accept',
      content: { answers: { 'Which database?': 'x'.repeat(2_500) } },
    });
    expect(getState().answers.get(request.requestId)).toMatchObject({ phase: 'failed' });
    // Notes within their own limits but too big together for one host message.
    const notes = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`q${i}`, { notes: '界'.repeat(1_300) }]));
    await submitResponse(request.requestId, { action: 'accept', content: { answers: {}, annotations: notes } });
    expect(getState().answers.get(request.requestId)).toMatchObject({
      phase: 'failed',
      error: expect.stringContaining('too long'),
    });

    // A valid answer afterwards still goes through.
    await submitResponse(request.requestId, {
      action: 'accept',
      content: { answers: { 'Which database?': 'SQLite' } },
    });
    await vi.waitFor(() => expect(getState().answers.get(request.requestId)?.phase).toBe('accepted'));
    await vi.waitFor(() => expect(runtime.resolved).toHaveLength(1));
    // The first answer the host saw is the valid one: the refused ones never left the phone.
    expect(getState().answers.get(request.requestId)?.resolution?.response).toEqual({
      action: 'accept',
      content: { answers: { 'Which database?': 'SQLite' } },
    });
  });
});

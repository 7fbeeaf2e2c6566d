import { afterEach, describe, expect, it, vi } from 'vitest';
import { PUSH_SUMMARY_TAG, type PushPayload, type PushShowPayload } from '../../contracts';
import { waitForIo } from '../test-support/wait-for-io';
import { pushFixture, type PushFixture } from './push-fixture';
import { expectItem } from '../../core/test-support/expect-item';

let fixture: PushFixture | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await fixture?.close();
  fixture = undefined;
});

function shows(payloads: PushPayload[]): PushShowPayload[] {
  return payloads.filter((payload): payload is PushShowPayload => payload.type === 'show');
}

describe('PushService: one notification per new interaction', () => {
  it('[R14.2] shows header, question, subagent origin and deadline, and deep-links to the card', async () => {
    fixture = await pushFixture();
    const f = fixture;
    await f.subscribe('phone');
    await f.registry.updatePreferences({
      askUserQuestionAutoResolutionEnabled: true,
      askUserQuestionAutoResolutionTimeoutMs: 600_000,
    });
    const requestId = await f.ask({
      header: 'Auth',
      question: 'Which login flow should the admin app use?',
      origin: { kind: 'subagent', label: 'explorer', path: ['planner', 'explorer'], depth: 2 },
    });

    await vi.waitFor(() => expect(f.received('phone')).toHaveLength(1));
    const [payload] = shows(f.received('phone'));
    const view = f.registry.projection.get(requestId);
    expect(view?.autoResolution.status).toBe('scheduled');
    expect(payload).toEqual({
      type: 'show',
      tag: requestId,
      title: 'Auth',
      body: 'Which login flow should the admin app use?\nAsked by subagent explorer (planner › explorer)',
      deadlineAt: view?.autoResolution.status === 'scheduled' ? view.autoResolution.deadlineAt : 'missing',
      timestamp: view?.createdAt,
      data: expect.objectContaining({ kind: 'interaction', url: `/card?id=${requestId}`, requestId }),
    });
  });

  it('[R14.2] a push service request carries TTL, urgency and a per-interaction Topic', async () => {
    fixture = await pushFixture();
    const f = fixture;
    await f.subscribe('phone');
    await f.ask();
    await vi.waitFor(() => expect(f.endpoint.requests).toHaveLength(1));
    const headers = expectItem(f.endpoint.requests, 0).headers;
    expect(headers?.['content-encoding']).toBe('aes128gcm');
    expect(headers?.urgency).toBe('high');
    expect(Number(headers?.ttl)).toBeGreaterThan(0);
    expect(headers?.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
  });

  it('[R14.3] closes the notification when the interaction is answered elsewhere', async () => {
    fixture = await pushFixture();
    const f = fixture;
    await f.subscribe('phone');
    const requestId = await f.ask();
    await vi.waitFor(() => expect(f.received('phone')).toHaveLength(1));

    await f.answer(requestId);
    await vi.waitFor(() => expect(f.received('phone')).toHaveLength(2));
    expect(f.received('phone')[1]).toEqual({ type: 'close', tags: [requestId] });
  });

  it('[R14.4] an interaction resolved within the collapse window is never shown (and needs no close)', async () => {
    fixture = await pushFixture({ collapseWindowMs: 60_000 });
    const f = fixture;
    await f.subscribe('phone');
    const requestId = await f.ask();
    expect(f.service.throttleState('phone')).toMatchObject({ queued: 1, timerPending: true });
    await f.answer(requestId);
    expect(f.service.throttleState('phone')).toMatchObject({ queued: 0 });
    await f.service.idle();
    expect(f.endpoint.requests).toHaveLength(0);
  });
});

describe('PushService: bursts and rate limit', () => {
  it('[R14.4] a fan-out of ten questions becomes one summary that opens the inbox', async () => {
    fixture = await pushFixture({ collapseWindowMs: 50 });
    const f = fixture;
    await f.subscribe('phone');
    for (let index = 0; index < 10; index += 1) await f.ask({ header: `Q${index}` });

    await vi.waitFor(() => expect(f.received('phone')).toHaveLength(1));
    await vi.waitFor(() => expect(f.service.throttleState('phone')).toMatchObject({ queued: 0, timerPending: false }));
    await f.service.idle();
    const payloads = f.received('phone');
    expect(payloads).toHaveLength(1);
    expect(payloads[0]).toMatchObject({
      type: 'show',
      tag: PUSH_SUMMARY_TAG,
      title: '10 questions waiting',
      body: 'Q0, Q1, Q2, Q3 +6',
      data: { kind: 'summary', url: '/' },
    });
  });

  it('[R14.3][R14.4] the summary closes once everything it stood for is answered', async () => {
    fixture = await pushFixture({ collapseWindowMs: 50 });
    const f = fixture;
    await f.subscribe('phone');
    const ids = [await f.ask(), await f.ask(), await f.ask()];
    await vi.waitFor(() => expect(f.received('phone')).toHaveLength(1));

    await f.answer(ids[0] ?? '');
    await f.answer(ids[1] ?? '');
    await f.service.idle();
    expect(f.received('phone')).toHaveLength(1);
    await f.answer(ids[2] ?? '');
    await vi.waitFor(() => expect(f.received('phone')).toHaveLength(2));
    expect(f.received('phone')[1]).toEqual({ type: 'close', tags: [PUSH_SUMMARY_TAG] });
  });

  it('[R14.4] past the per-device limit the rest waits for room, then arrives as one summary', async () => {
    // The throttle's timers and clock on fake time: the 1.5 s window passes when the test says so.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    fixture = await pushFixture({ collapseWindowMs: 10, rateLimitMax: 2, rateLimitWindowMs: 1_500 });
    const f = fixture;
    await f.subscribe('phone');
    await f.ask({ header: 'First' });
    vi.advanceTimersByTime(10);
    await waitForIo(() => expect(shows(f.received('phone'))).toHaveLength(1));
    await f.ask({ header: 'Second' });
    vi.advanceTimersByTime(10);
    await waitForIo(() => expect(shows(f.received('phone'))).toHaveLength(2));
    await f.ask({ header: 'Third' });
    await f.ask({ header: 'Fourth' });
    vi.advanceTimersByTime(10);
    // Both are held: the device had its two notifications this window.
    expect(f.service.throttleState('phone')).toMatchObject({ queued: 2, timerPending: true, sentInWindow: 2 });
    await f.service.idle();
    expect(shows(f.received('phone'))).toHaveLength(2);

    vi.advanceTimersByTime(1_500 - 30);
    expect(f.service.throttleState('phone')).toMatchObject({ queued: 2, timerPending: true });
    vi.advanceTimersByTime(30);
    await waitForIo(() => expect(shows(f.received('phone'))).toHaveLength(3));
    expect(shows(f.received('phone'))[2]).toMatchObject({ tag: PUSH_SUMMARY_TAG, title: '4 questions waiting' });
  });
});

describe('PushService: presence and expiry', () => {
  it('[R14.4] sends nothing to a device whose app is open and visible', async () => {
    fixture = await pushFixture();
    const f = fixture;
    await f.subscribe('desk');
    await f.subscribe('phone');
    f.service.presence.set('desk', 'socket-a', true);
    f.service.presence.set('phone', 'socket-b', false);
    await f.ask();

    await vi.waitFor(() => expect(f.received('phone')).toHaveLength(1));
    await f.service.idle();
    expect(f.received('desk')).toHaveLength(0);
    expect(f.service.throttleState('desk')).toBeUndefined();

    // Hidden again (app in the background): the next question reaches it.
    f.service.presence.set('desk', 'socket-a', false);
    await f.ask();
    await vi.waitFor(() => expect(f.received('desk')).toHaveLength(1));
  });

  it('[R14.4] a device with one visible tab out of two counts as looking; a dropped connection does not', async () => {
    fixture = await pushFixture();
    const f = fixture;
    await f.subscribe('desk');
    f.service.presence.set('desk', 'tab-1', false);
    f.service.presence.set('desk', 'tab-2', true);
    await f.ask();
    await f.service.idle();
    expect(f.service.throttleState('desk')).toBeUndefined();

    f.service.presence.drop('desk', 'tab-2');
    await f.ask();
    await vi.waitFor(() => expect(f.received('desk')).toHaveLength(1));
  });

  it.each([404, 410])('[R14.5] a %i from the push service removes the subscription', async (status) => {
    fixture = await pushFixture();
    const f = fixture;
    await f.subscribe('gone');
    await f.subscribe('phone');
    f.endpoint.statusFor.set('/push/gone', status);
    await f.ask();

    await vi.waitFor(async () => expect((await f.service.status('gone')).subscribed).toBe(false));
    expect((await f.service.status('phone')).subscribed).toBe(true);
    expect(f.logs.join('\n')).toContain('expired');

    await f.ask();
    await vi.waitFor(() => expect(f.received('phone')).toHaveLength(2));
    expect(f.endpoint.requests.filter((request) => request.path === '/push/gone')).toHaveLength(1);
  });

  it('[R14.5] other failures keep the subscription and are logged', async () => {
    fixture = await pushFixture();
    const f = fixture;
    await f.subscribe('phone');
    f.endpoint.statusFor.set('/push/phone', 500);
    await f.ask();
    await vi.waitFor(() => expect(f.logs.join('\n')).toContain('500'));
    expect((await f.service.status('phone')).subscribed).toBe(true);
  });

  it('[R14.1] the test notification reaches the device even while its app is visible', async () => {
    fixture = await pushFixture();
    const f = fixture;
    await f.subscribe('phone');
    f.service.presence.set('phone', 'socket', true);
    await expect(f.service.test('phone')).resolves.toEqual({ ok: true, webPush: 'sent', ntfy: 'not-configured' });
    expect(f.received('phone')[0]).toMatchObject({
      type: 'show',
      tag: 'askaway-test',
      data: { kind: 'test', url: '/' },
    });
    await expect(f.service.test('stranger')).resolves.toMatchObject({ webPush: 'not-subscribed' });
  });
});

describe('PushService: "Notify my phone" after a while (R14.7)', () => {
  it('[R14.7] a question answered before the delay buzzes nothing; one still waiting then is shown', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    fixture = await pushFixture({ collapseWindowMs: 10 });
    const f = fixture;
    await f.subscribe('phone');
    await f.registry.updatePreferences({ notifyDelayMs: 30_000 });

    const answered = await f.ask({ header: 'Answered at the desk' });
    const waiting = await f.ask({ header: 'Still waiting' });
    vi.advanceTimersByTime(29_000);
    expect(f.service.isHeld(answered) && f.service.isHeld(waiting)).toBe(true);
    await f.answer(answered);
    expect(f.service.isHeld(answered)).toBe(false);
    await f.service.idle();
    expect(f.received('phone')).toHaveLength(0);

    vi.advanceTimersByTime(1_000);
    // Due: the question goes to the phone's throttle once the subscriptions are read, then waits its collapse window.
    await f.service.idle();
    vi.advanceTimersByTime(10);
    await waitForIo(() => expect(shows(f.received('phone'))).toHaveLength(1));
    expect(shows(f.received('phone'))[0]).toMatchObject({ tag: waiting, title: 'Still waiting' });
    // Nothing was ever shown for the answered one, so nothing is closed.
    expect(f.received('phone').filter((payload) => payload.type === 'close')).toHaveLength(0);
  });

  it('[R14.7] a withdrawn question (the terminal answered first) buzzes nothing; "at once" is today\'s behaviour', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    fixture = await pushFixture({ collapseWindowMs: 10 });
    const f = fixture;
    await f.subscribe('phone');
    await f.registry.updatePreferences({ notifyDelayMs: 60_000 });
    const withdrawn = await f.ask();
    await f.withdraw(withdrawn);
    vi.advanceTimersByTime(61_000);
    await f.service.idle();
    expect(f.received('phone')).toHaveLength(0);

    await f.registry.updatePreferences({ notifyDelayMs: 0 });
    const atOnce = await f.ask();
    expect(f.service.isHeld(atOnce)).toBe(false);
    vi.advanceTimersByTime(10);
    await waitForIo(() => expect(shows(f.received('phone'))).toHaveLength(1));
  });

  it('[R14.7] the preference is shared host-wide, kept in the log, and only the offered delays are accepted', async () => {
    fixture = await pushFixture();
    const f = fixture;
    expect(f.registry.projection.preferences.notifyDelayMs).toBe(0);
    expect(await f.registry.updatePreferences({ notifyDelayMs: 300_000 })).toMatchObject({ ok: true });
    // A patch of another preference leaves it alone.
    await f.registry.updatePreferences({ askUserQuestionAutoResolutionEnabled: true });
    expect(f.registry.projection.preferences.notifyDelayMs).toBe(300_000);
  });
});

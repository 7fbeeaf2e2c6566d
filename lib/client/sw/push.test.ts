import { describe, expect, it, vi } from 'vitest';
import { expectItem } from '../../core/test-support/expect-item';
import {
  PUSH_BODY_MAX,
  PUSH_TAG_MAX,
  PUSH_TITLE_MAX,
  PushPayloadSchema,
  type PushShowPayload,
} from '../../contracts/push';
import {
  handlePush,
  notificationFor,
  parsePushPayload,
  notificationTargetUrl,
  openTarget,
  type ClientsLike,
  type NotificationRegistration,
  type WindowClientLike,
} from './push';

const ORIGIN = 'https://askaway.example:4417';

describe('notificationTargetUrl', () => {
  it('[R14.2] leads an interaction notification to its card', () => {
    expect(notificationTargetUrl({ kind: 'interaction', url: '/card?id=req%201', requestId: 'req 1' }, ORIGIN)).toBe(
      `${ORIGIN}/card?id=req%201`,
    );
  });

  it('[R14.4] leads a summary to the inbox', () => {
    expect(notificationTargetUrl({ kind: 'summary', url: '/' }, ORIGIN)).toBe(`${ORIGIN}/`);
  });

  it.each([
    ['another site', { kind: 'interaction', url: 'https://evil.example/card?id=1' }],
    ['a protocol-relative URL', { kind: 'interaction', url: '//evil.example/card' }],
    ['a backslash trick', { kind: 'interaction', url: '/\\evil.example' }],
    ['a script URL', { kind: 'interaction', url: 'javascript:alert(1)' }],
    ['missing data', undefined],
    ['malformed data', { url: 42 }],
  ])('[R14.5] falls back to the inbox for %s', (_name, data) => {
    expect(notificationTargetUrl(data, ORIGIN)).toBe(`${ORIGIN}/`);
  });
});

const show: PushShowPayload = {
  type: 'show',
  tag: 'req-1',
  title: 'Database',
  body: 'Which database?',
  deadlineAt: '2026-01-01T10:05:00.000Z',
  timestamp: '2026-01-01T10:00:00.000Z',
  data: { kind: 'interaction', url: '/card?id=req-1', requestId: 'req-1' },
};

describe('notificationFor', () => {
  it('[R14.2] tags by interaction, never renotifies, carries the deep link, and has no action buttons', () => {
    const { title, options } = notificationFor(show, 'en-US');
    expect(title).toBe('Database');
    expect(options).toMatchObject({ tag: 'req-1', renotify: false, data: show.data });
    expect(options).not.toHaveProperty('actions');
    expect(options.body).toMatch(/^Which database\?\nAgent continues on its own at \d{2}:\d{2}( [AP]M)?$/);
  });

  it('[R14.2] words the deadline in Chinese for a Chinese phone, and leaves it out when none is set', () => {
    expect(notificationFor(show, 'zh-CN').options.body).toMatch(/代理将在 .+ 自行继续$/);
    expect(notificationFor({ ...show, deadlineAt: undefined }, 'en').options.body).toBe('Which database?');
  });
});

function fakeRegistration() {
  const shown: { title: string; options?: NotificationOptions; closed: boolean }[] = [];
  const registration: NotificationRegistration = {
    showNotification: vi.fn(async (title: string, options?: NotificationOptions) => {
      const existing = shown.findIndex((entry) => entry.options?.tag === options?.tag && !entry.closed);
      if (existing >= 0) shown.splice(existing, 1);
      shown.push({ title, options, closed: false });
    }),
    getNotifications: vi.fn(async (filter?: GetNotificationOptions) =>
      shown
        .filter((entry) => !entry.closed && (!filter?.tag || entry.options?.tag === filter.tag))
        .map((entry) => ({ close: () => (entry.closed = true) }) as unknown as Notification),
    ),
  };
  return { registration, open: () => shown.filter((entry) => !entry.closed) };
}

describe('handlePush', () => {
  it('[R14.2][R14.3] shows a notification, and a close push for its tag closes it', async () => {
    const { registration, open } = fakeRegistration();
    await handlePush(JSON.stringify(show), registration, 'en');
    await handlePush(
      JSON.stringify({ ...show, tag: 'req-2', data: { ...show.data, requestId: 'req-2' } }),
      registration,
      'en',
    );
    expect(open().map((entry) => entry.options?.tag)).toEqual(['req-1', 'req-2']);

    await handlePush(JSON.stringify({ type: 'close', tags: ['req-1'] }), registration);
    expect(open().map((entry) => entry.options?.tag)).toEqual(['req-2']);
  });

  it('[R14.5] an unreadable push still shows a generic notification that opens the inbox', async () => {
    const { registration, open } = fakeRegistration();
    await handlePush('not json', registration);
    await handlePush(undefined, registration);
    expect(open()).toHaveLength(1);
    expect(expectItem(open(), 0).options?.data).toEqual({ kind: 'summary', url: '/' });
  });
});

describe('openTarget', () => {
  function fakeClients(windows: WindowClientLike[]): ClientsLike & { opened: string[] } {
    const opened: string[] = [];
    return {
      opened,
      matchAll: async () => windows,
      openWindow: async (url: string) => {
        opened.push(url);
        return undefined;
      },
    };
  }

  it('[R14.2] navigates and focuses an open window of the app', async () => {
    const client = { url: `${ORIGIN}/`, focus: vi.fn(async () => undefined), navigate: vi.fn(async () => undefined) };
    const clients = fakeClients([{ url: 'https://other.example/', focus: vi.fn(async () => undefined) }, client]);
    await openTarget(`${ORIGIN}/card?id=1`, clients);
    expect(client.navigate).toHaveBeenCalledWith(`${ORIGIN}/card?id=1`);
    expect(client.focus).toHaveBeenCalled();
    expect(clients.opened).toEqual([]);
  });

  it('[R14.2] opens a window when none of the app is open, or when the open one cannot be navigated', async () => {
    const none = fakeClients([]);
    await openTarget(`${ORIGIN}/card?id=1`, none);
    expect(none.opened).toEqual([`${ORIGIN}/card?id=1`]);

    const stuck = fakeClients([
      {
        url: `${ORIGIN}/`,
        focus: vi.fn(async () => undefined),
        navigate: vi.fn(async () => Promise.reject(new TypeError('uncontrolled'))),
      },
    ]);
    await openTarget(`${ORIGIN}/card?id=2`, stuck);
    expect(stuck.opened).toEqual([`${ORIGIN}/card?id=2`]);
  });
});

describe('parsePushPayload', () => {
  const samples: [string, unknown][] = [
    ['a show', show],
    ['a show without deadline', { ...show, deadlineAt: undefined }],
    ['a summary', { ...show, tag: 'askaway-summary', data: { kind: 'summary', url: '/' } }],
    ['a close', { type: 'close', tags: ['req-1', 'askaway-summary'] }],
    ['a close without tags', { type: 'close', tags: [] }],
    ['an unknown type', { type: 'resolve', requestId: 'x' }],
    ['a show without data', { ...show, data: undefined }],
    ['a show with an unknown kind', { ...show, data: { kind: 'answer', url: '/' } }],
    ['a show with a numeric title', { ...show, title: 7 }],
    ['a show with a title over the limit', { ...show, title: 'x'.repeat(PUSH_TITLE_MAX + 1) }],
    ['a show with a body over the limit', { ...show, body: 'x'.repeat(PUSH_BODY_MAX + 1) }],
    ['a close with a tag over the limit', { type: 'close', tags: ['x'.repeat(PUSH_TAG_MAX + 1)] }],
    ['an array', [show]],
  ];
  it.each(samples)('[R14.2] agrees with the contract on %s', (_name, sample) => {
    const json = JSON.stringify(sample);
    const expected = PushPayloadSchema.safeParse(JSON.parse(json));
    expect(parsePushPayload(json)).toEqual(expected.success ? expected.data : undefined);
  });
});

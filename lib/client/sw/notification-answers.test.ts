import { describe, expect, it, vi } from 'vitest';
import { SECRET_ANSWER_MASK } from '../../contracts/limits';
import { type PushShowPayload } from '../../contracts/push';
import { type OutboxEntry } from '../outbox-db';
import { type WorkerDevice } from '../worker-device';
import {
  answerFromNotification,
  flushQueuedAnswers,
  notificationActions,
  pressedAnswer,
  readAnswerable,
  ANSWER_SYNC_TAG,
  RECEIPT_VISIBLE_MS,
  shownAnswers,
  type AnswerableData,
  type AnswerDeps,
} from './notification-answers';
import { handlePush, notificationFor, registerPushHandlers, type PushWorkerScope } from './push';

const ORIGIN = 'https://askaway.example';
const DEVICE: WorkerDevice = { hostUrl: '', deviceId: 'd1', credential: 'aw_d_secret', answerButtons: true };

const approval: AnswerableData = {
  kind: 'interaction',
  url: '/card?id=r1',
  requestId: 'r1',
  agent: 'Codex',
  fit: 'first',
  answers: [
    { title: 'Yes, run it', outcome: 'allowed', response: { action: 'accept', content: { choice: 'approved' } } },
    { title: 'No', outcome: 'denied', response: { action: 'decline' } },
    { title: 'Yes, always', outcome: 'allowed', response: { action: 'accept', content: { choice: 'always' } } },
  ],
};
const question: AnswerableData = {
  kind: 'interaction',
  url: '/card?id=q1',
  requestId: 'q1',
  fit: 'all',
  answers: ['A', 'B', 'C'].map((label) => ({
    title: label,
    outcome: 'answered' as const,
    response: { action: 'accept' as const, content: { answers: { 'Which?': label } } },
  })),
};

describe('answer buttons (R14.8, R14.9)', () => {
  it('[R14.8] an approval shows as many of its answers as the platform shows, in order', () => {
    expect(shownAnswers(approval, 2).map((answer) => answer.title)).toEqual(['Yes, run it', 'No']);
    expect(shownAnswers(approval, 0)).toEqual([]);
  });

  it("[R14.9] a question's options show all or none: a missing option would change the question", () => {
    expect(shownAnswers(question, 2)).toEqual([]);
    expect(shownAnswers(question, 3)).toHaveLength(3);
  });

  it('[R14.12] a summary or a test shows no answers, whatever its data says', () => {
    expect(shownAnswers({ ...approval, kind: 'summary' }, 2)).toEqual([]);
  });

  it('[R14.8] notificationFor adds the buttons only when the device shows them', () => {
    const payload: PushShowPayload = {
      type: 'show',
      tag: 'r1',
      title: 'Run a command?',
      body: 'npm test',
      timestamp: '2026-01-01T10:00:00.000Z',
      data: { ...approval, fit: 'first' } as PushShowPayload['data'],
    };
    expect(notificationFor(payload, 'en', 2).options).toMatchObject({
      actions: [
        { action: '0', title: 'Yes, run it' },
        { action: '1', title: 'No' },
      ],
    });
    expect(notificationFor(payload, 'en', 0).options).not.toHaveProperty('actions');
  });

  it("[R14.8] a tool permission's Allow and Deny are the app's words, in the phone's language", () => {
    const permission: AnswerableData = {
      kind: 'interaction',
      url: '/card?id=p1',
      requestId: 'p1',
      fit: 'first',
      answers: [
        { title: 'Allow', outcome: 'allowed', response: { action: 'accept' }, appLabel: 'allow' },
        { title: 'Deny', outcome: 'denied', response: { action: 'decline' }, appLabel: 'deny' },
      ],
    };
    const read = readAnswerable(permission);
    if (!read) throw new Error('unreadable');
    expect(notificationActions(read, 2, 'zh-CN').map((action) => action.title)).toEqual(['允许', '拒绝']);
    expect(notificationActions(read, 2, 'en-GB').map((action) => action.title)).toEqual(['Allow', 'Deny']);
  });

  it('[R14.8] a press names a shown answer by its index, and nothing else answers', () => {
    expect(pressedAnswer(approval, '1')?.response).toEqual({ action: 'decline' });
    expect(pressedAnswer(approval, '')).toBeUndefined();
    expect(pressedAnswer(approval, 'settings')).toBeUndefined();
    expect(pressedAnswer(approval, '7')).toBeUndefined();
  });

  it('[R14.10] data with a malformed answer carries no answers at all', () => {
    const data = readAnswerable({
      ...approval,
      answers: [...(approval.answers ?? []), { title: 'x', outcome: 'maybe' }],
    });
    expect(data?.answers).toBeUndefined();
  });
});

function fakeRegistration() {
  const shown: { title: string; options: NotificationOptions; closed: boolean }[] = [];
  const registration = {
    showNotification: vi.fn(async (title: string, options: NotificationOptions = {}) => {
      for (const entry of shown) if (entry.options.tag === options.tag) entry.closed = true;
      shown.push({ title, options, closed: false });
    }),
    getNotifications: vi.fn(async (filter?: GetNotificationOptions) =>
      shown
        .filter((entry) => !entry.closed && (!filter?.tag || entry.options.tag === filter.tag))
        .map(
          (entry) =>
            ({
              title: entry.title,
              tag: entry.options.tag,
              data: entry.options.data as unknown,
              close: () => (entry.closed = true),
            }) as unknown as Notification,
        ),
    ),
  };
  return { registration, open: () => shown.filter((entry) => !entry.closed) };
}

function fakeDeps(reply: () => Promise<unknown>) {
  const outbox = new Map<string, OutboxEntry>();
  const sent: { url: string; init: RequestInit }[] = [];
  let slept = 0;
  let syncs = 0;
  const deps: AnswerDeps = {
    origin: ORIGIN,
    language: 'en',
    fetch: async (url, init) => {
      sent.push({ url, init });
      const body = await reply();
      return { json: async () => body } as Response;
    },
    readDevice: async () => DEVICE,
    outbox: {
      load: async () => [...outbox.values()],
      put: async (entry) => outbox.set(entry.clientResponseId, entry),
      delete: async (id) => outbox.delete(id),
    },
    newId: () => `id-${sent.length + outbox.size}`,
    now: () => Date.parse('2026-01-01T10:00:00.000Z'),
    sleep: async (ms) => {
      slept += ms;
    },
    requestSync: async () => {
      syncs += 1;
    },
  };
  return { deps, outbox, sent, slept: () => slept, syncs: () => syncs };
}

const pressed = { title: 'Run a command?', tag: 'r1', data: approval };
const resolution = (clientResponseId: string, label?: string) => ({
  requestId: 'r1',
  response: { action: 'accept', content: { choice: 'approved' } },
  resolvedBy: 'user',
  resolvedAt: '2026-01-01T10:00:01.000Z',
  clientResponseId,
  ...(label ? { device: { id: 'd2', label } } : {}),
});

describe('answerFromNotification (R14.10, R14.11)', () => {
  it('[R14.10][R14.11] sends the answer with the device credential, clears the outbox and shows a silent receipt', async () => {
    const { registration, open } = fakeRegistration();
    const fake = fakeDeps(async () => ({ ack: { ok: true, status: 'accepted', resolution: resolution('id-0') } }));
    const answer = pressedAnswer(approval, '0');
    if (!answer) throw new Error('no answer');
    expect(await answerFromNotification(pressed, approval, answer, registration, fake.deps)).toBe(true);
    const [request] = fake.sent;
    expect(request?.url).toBe(`${ORIGIN}/api/respond`);
    expect(request?.init.headers).toMatchObject({ Authorization: 'Bearer aw_d_secret' });
    expect(JSON.parse(String(request?.init.body))).toEqual({
      requestId: 'r1',
      clientResponseId: 'id-0',
      response: { action: 'accept', content: { choice: 'approved' } },
    });
    expect(fake.outbox.size).toBe(0);
    expect(fake.syncs(), 'nothing left to sync').toBe(0);
    const receipt = registration.showNotification.mock.calls[0];
    expect(receipt?.[1]).toMatchObject({ tag: 'r1', body: 'Allowed · received by Codex', silent: true });
    expect(receipt?.[1]).not.toHaveProperty('actions');
    // It closed itself after a while.
    expect(fake.slept()).toBe(RECEIPT_VISIBLE_MS);
    expect(open()).toEqual([]);
  });

  it('[R14.11] offline, the answer stays queued in the outbox and the receipt says it will be sent', async () => {
    const { registration, open } = fakeRegistration();
    const fake = fakeDeps(() => Promise.reject(new TypeError('Failed to fetch')));
    const answer = pressedAnswer(approval, '1');
    if (!answer) throw new Error('no answer');
    await answerFromNotification(pressed, approval, answer, registration, fake.deps);
    expect([...fake.outbox.values()]).toMatchObject([
      { requestId: 'r1', state: 'queued', response: { action: 'decline' } },
    ]);
    expect(open().map((entry) => entry.options.body)).toEqual(['Will be sent when you’re online']);
    expect(fake.syncs(), 'a sync once online').toBe(1);

    // Back online, the worker's next run sends it and the receipt says so; the close push no longer waits for it.
    const online = fakeDeps(async () => ({ ack: { ok: true, status: 'accepted', resolution: resolution('id-0') } }));
    online.deps.outbox = fake.deps.outbox;
    expect(await flushQueuedAnswers(registration, online.deps)).toBe(0);
    expect(fake.outbox.size).toBe(0);
    expect(registration.showNotification.mock.calls.at(-1)?.[1]).toMatchObject({
      body: 'Denied · received by Codex',
    });
  });

  it('[R14.11] an answer that lost the race is kept as lost, and the receipt names who answered', async () => {
    const { registration } = fakeRegistration();
    const fake = fakeDeps(async () => ({
      ack: { ok: true, status: 'already-resolved', resolution: resolution('desk-1', 'Desk') },
    }));
    const answer = pressedAnswer(approval, '0');
    if (!answer) throw new Error('no answer');
    await answerFromNotification(pressed, approval, answer, registration, fake.deps);
    expect([...fake.outbox.values()]).toMatchObject([{ state: 'lost', resolution: { clientResponseId: 'desk-1' } }]);
    expect(registration.showNotification.mock.calls[0]?.[1]).toMatchObject({
      body: 'Already answered by another device (Desk)',
    });
  });

  it('[R14.11] in Chinese, the receipt is in Chinese', async () => {
    const { registration } = fakeRegistration();
    const fake = fakeDeps(async () => ({
      ack: { ok: false, error: { code: 'withdrawn', message: 'x' } },
      answeredInTerminal: true,
    }));
    fake.deps.language = 'zh-CN';
    const answer = pressedAnswer(approval, '0');
    if (!answer) throw new Error('no answer');
    await answerFromNotification(pressed, approval, answer, registration, fake.deps);
    expect(registration.showNotification.mock.calls[0]?.[1]).toMatchObject({ body: '已在终端中回答' });
  });

  it('[R14.10] with no paired device stored, nothing is sent and the caller opens the card', async () => {
    const { registration } = fakeRegistration();
    const fake = fakeDeps(async () => ({}));
    fake.deps.readDevice = async () => undefined;
    const answer = pressedAnswer(approval, '0');
    if (!answer) throw new Error('no answer');
    expect(await answerFromNotification(pressed, approval, answer, registration, fake.deps)).toBe(false);
    expect(fake.sent).toEqual([]);
  });

  it('[R14.11] the close push leaves a settled receipt alone and closes a queued one', async () => {
    const { registration, open } = fakeRegistration();
    await registration.showNotification('A', { tag: 'r1', data: { ...approval, receipt: 'final' } });
    await registration.showNotification('B', { tag: 'r2', data: { ...approval, requestId: 'r2', receipt: 'queued' } });
    await handlePush(JSON.stringify({ type: 'close', tags: ['r1', 'r2'] }), registration);
    expect(open().map((entry) => entry.title)).toEqual(['A']);
  });
});

describe('Background Sync (R14.11)', () => {
  /** A worker scope that keeps its listeners, for dispatching `sync` events to them. */
  function fakeScope(registration: ReturnType<typeof fakeRegistration>['registration']) {
    const listeners = new Map<string, (event: unknown) => void>();
    const scope = {
      location: { origin: ORIGIN },
      registration,
      clients: { matchAll: async () => [], openWindow: async () => undefined },
      addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener),
    } as unknown as PushWorkerScope;
    const sync = (tag: string) => {
      let settled: Promise<unknown> | undefined;
      listeners.get('sync')?.({ tag, waitUntil: (promise: Promise<unknown>) => (settled = promise) });
      return settled;
    };
    return { scope, sync };
  }

  it('[R14.11] the sync event sends the queued answers, and fails (so the browser tries again) while it cannot', async () => {
    const { registration } = fakeRegistration();
    await registration.showNotification('Run a command?', { tag: 'r1', data: { ...approval, receipt: 'queued' } });
    let online = false;
    const fake = fakeDeps(async () => {
      if (!online) throw new TypeError('Failed to fetch');
      return { ack: { ok: true, status: 'accepted', resolution: resolution('c1') } };
    });
    await fake.deps.outbox.put({
      requestId: 'r1',
      clientResponseId: 'c1',
      response: { action: 'decline' },
      createdAt: '2026-01-01T10:00:00.000Z',
      state: 'queued',
    });
    const { scope, sync } = fakeScope(registration);
    registerPushHandlers(scope, fake.deps);

    expect(sync('some-other-tag'), 'another tag is not ours').toBeUndefined();
    await expect(sync(ANSWER_SYNC_TAG)).rejects.toThrow('1 answer(s) still queued');
    expect(fake.outbox.size).toBe(1);
    online = true;
    await expect(sync(ANSWER_SYNC_TAG)).resolves.toBeUndefined();
    expect(fake.outbox.size).toBe(0);
    expect(fake.sent).toHaveLength(2);
    expect(registration.showNotification.mock.calls.at(-1)?.[1]).toMatchObject({
      tag: 'r1',
      body: 'Denied · received by Codex',
    });
  });
});

describe("the worker's settled entries (R12.14)", () => {
  const SECRET = 'tok-5e02c9a1';
  const QUESTION = 'Paste the deploy token';
  /** An answer the app queued offline to a secret question, with a note, waiting for the worker to send it. */
  const queuedSecret = (clientResponseId: string): OutboxEntry => ({
    requestId: 'q1',
    clientResponseId,
    response: {
      action: 'accept',
      content: {
        answers: { [QUESTION]: SECRET, 'Which region?': 'eu' },
        annotations: { [QUESTION]: { notes: `the ${SECRET} one` } },
      },
    },
    createdAt: '2026-01-01T10:00:00.000Z',
    state: 'queued',
    secretQuestions: [QUESTION],
  });

  it.each([
    ['lost the race', { ok: true, status: 'already-resolved', resolution: resolution('desk-1', 'Desk') }, 'lost'],
    ['refused', { ok: false, error: { code: 'invalid-response', message: 'Not an answer' } }, 'failed'],
    ['refused as withdrawn', { ok: false, error: { code: 'withdrawn', message: 'Withdrawn' } }, 'failed'],
  ])('[R12.14] a secret answer the worker settles as %s keeps only the mask in the outbox', async (_, ack, state) => {
    const { registration } = fakeRegistration();
    const fake = fakeDeps(async () => ({ ack }));
    await fake.deps.outbox.put(queuedSecret('c1'));
    await expect(flushQueuedAnswers(registration, fake.deps)).resolves.toBe(0);
    const kept = [...fake.outbox.values()];
    expect(kept).toMatchObject([{ clientResponseId: 'c1', state }]);
    expect(JSON.stringify(kept)).not.toContain(SECRET);
    expect(kept[0]?.response).toEqual({
      action: 'accept',
      content: { answers: { [QUESTION]: SECRET_ANSWER_MASK, 'Which region?': 'eu' }, annotations: {} },
    });
    // What went to the host was the whole answer: only what stays behind is masked.
    expect(String(fake.sent[0]?.init.body)).toContain(SECRET);
  });

  it('[R12.14] a secret answer still queued (offline) keeps the whole answer: it is what will be sent', async () => {
    const { registration } = fakeRegistration();
    const fake = fakeDeps(async () => {
      throw new TypeError('Failed to fetch');
    });
    await fake.deps.outbox.put(queuedSecret('c1'));
    await expect(flushQueuedAnswers(registration, fake.deps)).resolves.toBe(1);
    expect(JSON.stringify([...fake.outbox.values()])).toContain(SECRET);
  });
});

import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SECRET_ANSWER_MASK, type InteractionResponse, type InteractionView, type RespondCommand } from '../contracts';
import {
  CACHE_STORE,
  DB_NAME,
  deleteOutboxEntry,
  loadOutboxEntries,
  OUTBOX_STORE,
  putOutboxEntry,
  type OutboxEntry,
} from './outbox-db';
import { connectionHarness } from './test-support/connection-harness';
import { at, MemoryOutbox, questionView, resolution, snapshotOf } from './test-support/fixtures';

const SECRET = 'hunter2-offline-77f1';
const NOTE = 'note-offline-2b9c';
const TOKEN_QUESTION = 'Paste the deploy token';

/** The app's own outbox, IndexedDB as app-connection.ts wires it, where the harness takes an in-memory one. */
class IndexedDbOutbox extends MemoryOutbox {
  override load() {
    return loadOutboxEntries();
  }
  override put(entry: OutboxEntry) {
    return putOutboxEntry(entry).then(() => undefined);
  }
  override delete(clientResponseId: string) {
    return deleteOutboxEntry(clientResponseId).then(() => undefined);
  }
}
const outbox = new IndexedDbOutbox();

function secretView(requestId: string): InteractionView {
  return {
    ...questionView(requestId),
    toolName: 'request_user_input',
    inputRules: 'agent',
    input: { questions: [{ question: TOKEN_QUESTION, header: 'Token', kind: 'text', secret: true }] },
  } as InteractionView;
}

const ANSWER: InteractionResponse = {
  action: 'accept',
  content: { answers: { [TOKEN_QUESTION]: SECRET }, annotations: { [TOKEN_QUESTION]: { notes: NOTE } } },
};

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

/** Everything the device's IndexedDB holds, outbox and cache, as one text. */
async function everythingStored(): Promise<string> {
  const db = await request(indexedDB.open(DB_NAME));
  const tx = db.transaction([OUTBOX_STORE, CACHE_STORE], 'readonly');
  const [entries, cached] = await Promise.all([
    request(tx.objectStore(OUTBOX_STORE).getAll()),
    request(tx.objectStore(CACHE_STORE).getAll()),
  ]);
  db.close();
  return JSON.stringify([entries, cached]);
}

/** Each test starts on an empty device (the app's connection to the database stays open between them). */
beforeEach(async () => {
  const entries = await loadOutboxEntries();
  await Promise.all(entries.map((entry) => deleteOutboxEntry(entry.clientResponseId)));
});

/** A device that saw the secret question, then went offline; the user answers it there. */
async function answeredOffline(requestId: string) {
  const h = connectionHarness({ outbox });
  h.start();
  h.socket().accept();
  h.socket().send('snapshot', snapshotOf([secretView(requestId)], 5));
  h.socket().drop();
  await h.connection.submitResponse(requestId, ANSWER);
  // While it waits, the outbox must hold it whole: it is what will be sent (R9.8).
  expect(await everythingStored()).toContain(SECRET);
  return h;
}

function onlyRespond(h: ReturnType<typeof connectionHarness>) {
  const pending = h.socket().pending('respond');
  expect(pending).toHaveLength(1);
  const emit = pending[0];
  if (!emit) throw new Error('no respond emit');
  return { emit, command: emit.payload as RespondCommand };
}

describe('[R12.14] a settled answer leaves no secret on the device', () => {
  it('[R12.14] an answer typed offline that lost the race keeps its receipt, with the mask, in IndexedDB', async () => {
    const h = await answeredOffline('q1');
    h.socket().accept();
    const { emit } = onlyRespond(h);
    emit.reply({ ok: true, status: 'already-resolved', resolution: resolution('q1', 'other-device') });
    await vi.waitFor(() => expect(h.answer('q1')?.phase).toBe('lost'));
    await vi.waitFor(async () => expect(await everythingStored()).toContain(SECRET_ANSWER_MASK));
    const stored = await everythingStored();
    expect(stored).not.toContain(SECRET);
    expect(stored).not.toContain(NOTE);
    expect(JSON.stringify(h.answer('q1'))).not.toContain(SECRET);
  });

  it('[R12.14] one sent after the question was withdrawn (refused, kept to show why) keeps no secret either', async () => {
    const h = await answeredOffline('q2');
    h.socket().accept();
    onlyRespond(h).emit.reply({ ok: false, error: { code: 'withdrawn', message: 'The agent stopped waiting' } });
    await vi.waitFor(() => expect(h.answer('q2')?.phase).toBe('failed'));
    await vi.waitFor(async () => expect(await everythingStored()).toContain('The agent stopped waiting'));
    expect(await everythingStored()).not.toMatch(new RegExp(`${SECRET}|${NOTE}`));
  });

  it('[R12.14] an accepted one leaves the outbox and keeps only the mask in memory', async () => {
    const h = await answeredOffline('q3');
    h.socket().accept();
    const { emit, command } = onlyRespond(h);
    expect(command.response).toEqual(ANSWER);
    emit.reply({ ok: true, status: 'accepted', resolution: { ...resolution('q3', 'answer-1'), response: ANSWER } });
    await vi.waitFor(() => expect(h.answer('q3')?.phase).toBe('accepted'));
    await vi.waitFor(async () => expect(await everythingStored()).not.toContain('"q3"'));
    expect(JSON.stringify(h.answer('q3')?.response)).not.toContain(SECRET);
  });

  it('[R12.14] a lost entry an older app kept with its secret is masked when the outbox is loaded', async () => {
    await putOutboxEntry({
      requestId: 'q4',
      clientResponseId: 'kept-before',
      response: ANSWER,
      createdAt: at(3),
      state: 'lost',
      secretQuestions: [TOKEN_QUESTION],
    });
    const h = connectionHarness({ outbox });
    h.start();
    await vi.waitFor(() => expect(h.state().outboxLoaded).toBe(true));
    await vi.waitFor(async () => expect(await everythingStored()).not.toContain(SECRET));
    expect(h.answer('q4')?.response).toMatchObject({ content: { answers: { [TOKEN_QUESTION]: SECRET_ANSWER_MASK } } });
  });
});

import {
  MAX_MESSAGE_BYTES,
  RespondAckSchema,
  RespondCommandSchema,
  type InteractionResponse,
  type RespondAck,
  type RespondCommand,
} from '../contracts';
import { maskSecretAnswers, secretQuestionsOf } from '../state/secret-answers';
import { type Clock, type TimerHandle } from './clock';
import { type HostSocket } from './host-socket';
import { type OutboxEntry } from './outbox-db';
import { describeIssues, type ProtocolError } from './protocol-error';
import { fromOutboxEntry, withAnswer, type LocalAnswer, type RemoteStore } from './store';

/** Where answers wait until the host acknowledged them (IndexedDB in the app). */
export interface Outbox {
  load(): Promise<OutboxEntry[]>;
  put(entry: OutboxEntry): Promise<unknown>;
  delete(clientResponseId: string): Promise<unknown>;
}

export const ANSWER_ACK_TIMEOUT_MS = 10_000;
/** A queued answer is retried on a live socket after this delay, doubling up to the max. */
export const ANSWER_RETRY_MIN_MS = 1_000;
export const ANSWER_RETRY_MAX_MS = 30_000;
/** Host errors that may clear up on their own: the answer stays queued and is retried. */
export const TRANSIENT_ANSWER_ERRORS: ReadonlySet<string> = new Set([
  'unknown-interaction',
  'rate-limited',
  'internal',
  'storage-unavailable',
]);

export interface AnswerQueueOptions {
  store: RemoteStore;
  outbox: Outbox;
  clock: Clock;
  newId: () => string;
  /** The socket answers go out on; nothing is sent while it is missing or disconnected. */
  socket: () => HostSocket | null;
  report: (error: ProtocolError) => void;
}

/** This device's answers on their way to the host (R9.8): durable first, sent once per try, settled by the ack. */
export interface AnswerQueue {
  /** Loads what earlier pages left in the outbox (once) and sends what is queued. */
  restore(): Promise<void>;
  /** Stores the answer durably first, then sends it if connected. Never throws away what the user wrote. */
  submit(requestId: string, response: InteractionResponse): Promise<void>;
  /** Sends every queued answer not already in flight. */
  flush(): void;
  /** The connection is gone for good: forget what was in flight and the pending retry. */
  reset(): void;
}

export function createAnswerQueue({ store, outbox, clock, newId, socket, report }: AnswerQueueOptions): AnswerQueue {
  const inFlight = new Set<string>();
  let retryTimer: TimerHandle | null = null;
  let retryDelayMs = ANSWER_RETRY_MIN_MS;
  let restored: Promise<void> | null = null;

  const setAnswer = (answer: LocalAnswer) => store.setState((s) => withAnswer(s, answer));

  /**
   * The answer once settled (accepted, lost, refused): its secret answers masked and their notes dropped, in
   * memory and in the outbox alike, since the host has it or never will (R12.14). Only a queued one holds them.
   */
  function withoutSecrets(answer: LocalAnswer): LocalAnswer {
    const secrets = new Set(
      answer.secretQuestions ?? secretQuestionsOf(store.getState().host.interactions.get(answer.requestId)),
    );
    const response = maskSecretAnswers(answer.response, secrets);
    return response === answer.response ? answer : { ...answer, response };
  }

  function restore(): Promise<void> {
    restored ??= outbox
      .load()
      .catch(() => [] as OutboxEntry[])
      .then((entries) => {
        const restoredAnswers = entries.map((entry) => {
          const answer = fromOutboxEntry(entry);
          if (entry.state === 'queued') return answer;
          // Settled by an older app that kept the secret: it goes now (R12.14).
          const scrubbed = withoutSecrets(answer);
          if (scrubbed !== answer) void outbox.put(toEntry(scrubbed, entry.state)).catch(() => undefined);
          return scrubbed;
        });
        store.setState((s) => {
          const answers = new Map(s.answers);
          for (const answer of restoredAnswers) {
            if (!answers.has(answer.requestId)) answers.set(answer.requestId, answer);
          }
          return { ...s, answers, outboxLoaded: true };
        });
        flush();
      });
    return restored;
  }

  async function submit(requestId: string, response: InteractionResponse): Promise<void> {
    const previous = store.getState().answers.get(requestId);
    const secrets = secretQuestionsOf(store.getState().host.interactions.get(requestId));
    const answer: LocalAnswer = {
      requestId,
      clientResponseId: newId(),
      response,
      createdAt: new Date(clock.now()).toISOString(),
      phase: 'queued',
      ...(secrets.size > 0 ? { secretQuestions: [...secrets] } : {}),
    };
    // An answer the host would refuse is refused here, at once and even offline, so the form
    // comes back to be corrected instead of the answer waiting in the queue for a refusal.
    const problem = unsendableReason(commandOf(answer));
    if (problem) {
      setAnswer(withoutSecrets({ ...answer, phase: 'failed', error: problem }));
      return;
    }
    setAnswer(answer);
    try {
      // A refused answer is replaced by this one: a reload must restore the new one, not the refusal.
      if (previous?.phase === 'failed') await outbox.delete(previous.clientResponseId).catch(() => undefined);
      await outbox.put(toEntry(answer, 'queued'));
    } catch {
      // No IndexedDB (private mode): the answer still lives in memory and is sent when possible.
    }
    send(answer);
  }

  function flush(): void {
    for (const answer of store.getState().answers.values()) if (answer.phase === 'queued') send(answer);
  }

  function send(answer: LocalAnswer): void {
    const live = socket();
    if (!live?.connected || inFlight.has(answer.clientResponseId)) return;
    inFlight.add(answer.clientResponseId);
    setAnswer({ ...answer, phase: 'sending' });
    live.timeout(ANSWER_ACK_TIMEOUT_MS).emit('respond', commandOf(answer), (error, raw) => {
      inFlight.delete(answer.clientResponseId);
      if (error) {
        // No ack: keep it queued; the same clientResponseId makes the retry idempotent.
        requeue(answer);
        return;
      }
      const ack = RespondAckSchema.safeParse(raw);
      if (!ack.success) report({ event: 'respond', reply: true, rule: describeIssues(ack.error.issues) });
      void settle(answer, ack.success ? ack.data : null);
    });
  }

  /**
   * Back to the queue. A reconnect flushes the queue, but a refusal on a live socket
   * (rate-limited, internal, no ack in time) would wait for one forever: retry later.
   */
  function requeue(answer: LocalAnswer, retryReason?: string): void {
    setAnswer({ ...answer, phase: 'queued', retryReason });
    if (retryTimer !== null || !socket()?.connected) return;
    retryTimer = clock.setTimeout(() => {
      retryTimer = null;
      flush();
    }, retryDelayMs);
    retryDelayMs = Math.min(ANSWER_RETRY_MAX_MS, retryDelayMs * 2);
  }

  async function settle(answer: LocalAnswer, ack: RespondAck | null): Promise<void> {
    if (!ack) {
      requeue(answer);
      return;
    }
    if (!ack.ok) {
      if (TRANSIENT_ANSWER_ERRORS.has(ack.error.code)) {
        // A full disk on the host is worth saying (R12.6): the answer waits here until it can be saved there.
        requeue(answer, ack.error.code === 'storage-unavailable' ? ack.error.message : undefined);
        return;
      }
      const failed = withoutSecrets({ ...answer, phase: 'failed', error: ack.error.message });
      setAnswer(failed);
      await outbox.put(toEntry(failed, 'failed')).catch(() => undefined);
      return;
    }
    retryDelayMs = ANSWER_RETRY_MIN_MS;
    const { retryReason: _waitedFor, ...sent } = answer;
    answer = sent;
    const won = ack.status === 'accepted' || ack.resolution.clientResponseId === answer.clientResponseId;
    if (won) {
      setAnswer(withoutSecrets({ ...answer, phase: 'accepted', resolution: ack.resolution }));
      await outbox.delete(answer.clientResponseId).catch(() => undefined);
      return;
    }
    const lost = withoutSecrets({ ...answer, phase: 'lost', resolution: ack.resolution });
    setAnswer(lost);
    // Kept (not deleted) so what the user wrote stays readable after a reload.
    await outbox.put(toEntry(lost, 'lost')).catch(() => undefined);
  }

  function reset(): void {
    inFlight.clear();
    if (retryTimer !== null) clock.clearTimeout(retryTimer);
    retryTimer = null;
    retryDelayMs = ANSWER_RETRY_MIN_MS;
  }

  return { restore, submit, flush, reset };
}

function commandOf(answer: LocalAnswer): RespondCommand {
  return { requestId: answer.requestId, clientResponseId: answer.clientResponseId, response: answer.response };
}

function toEntry(answer: LocalAnswer, state: OutboxEntry['state']): OutboxEntry {
  const { phase: _phase, ...rest } = answer;
  return { ...rest, state };
}

/** Why the host could never accept this command (shape, limits, message size), or null. */
function unsendableReason(command: RespondCommand): string | null {
  const parsed = RespondCommandSchema.safeParse(command);
  if (!parsed.success) return describeIssues(parsed.error.issues.slice(0, 1));
  // The host closes a connection whose message exceeds its limit; leave room for the envelope.
  const bytes = new TextEncoder().encode(JSON.stringify(command)).length;
  if (bytes > MAX_MESSAGE_BYTES - 1_024) return 'The answer is too long to send; shorten the notes or the typed text';
  return null;
}

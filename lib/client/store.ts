import { type InteractionResolution, type InteractionResponse } from '../contracts';
import { type OutboxEntry } from './outbox-db';
import { EMPTY_HOST_VIEW, type HostView } from './host-view';

export type ConnectionStatus =
  'idle' | 'unpaired' | 'connecting' | 'connected' | 'reconnecting' | 'offline' | 'refused';

export type ConnectionErrorKind = 'unauthorized' | 'device-revoked' | 'protocol-mismatch' | 'unreachable' | 'other';
export interface ConnectionError {
  kind: ConnectionErrorKind;
  message: string;
}

/** Where an answer this device gave stands: delivery is always visible. */
export type AnswerPhase = 'queued' | 'sending' | 'accepted' | 'lost' | 'failed';

export interface LocalAnswer {
  requestId: string;
  clientResponseId: string;
  response: InteractionResponse;
  createdAt: string;
  phase: AnswerPhase;
  /** The winning resolution (ours when accepted, someone else's when lost). */
  resolution?: InteractionResolution;
  error?: string;
  /** Why the host asked for this answer again later (its disk is full, R12.6): shown while it waits. */
  retryReason?: string;
  /** Its questions that are secret: masked here once the answer is settled (R12.14). */
  secretQuestions?: string[];
}

export interface RemoteState {
  status: ConnectionStatus;
  error: ConnectionError | null;
  /** Host URL being used (for messages); '' = this origin. */
  hostUrl: string;
  host: HostView;
  /** This device's answers by requestId. */
  answers: ReadonlyMap<string, LocalAnswer>;
  outboxLoaded: boolean;
}

export const INITIAL_REMOTE_STATE: RemoteState = {
  status: 'idle',
  error: null,
  hostUrl: '',
  host: EMPTY_HOST_VIEW,
  answers: new Map(),
  outboxLoaded: false,
};

/** The remote's state as an external store (React reads it with useSyncExternalStore). */
export interface RemoteStore {
  getState(): RemoteState;
  setState(update: (current: RemoteState) => RemoteState): void;
  subscribe(listener: () => void): () => void;
}

export function createRemoteStore(initial: RemoteState = INITIAL_REMOTE_STATE): RemoteStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    setState(update) {
      const next = update(state);
      if (next === state) return;
      state = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The state with this answer recorded (replacing the request's previous one). */
export function withAnswer(current: RemoteState, answer: LocalAnswer): RemoteState {
  const answers = new Map(current.answers);
  answers.set(answer.requestId, answer);
  return { ...current, answers };
}

/** Number of answers waiting for the host (queued or in flight). */
export function queuedCount(current: RemoteState): number {
  let count = 0;
  for (const answer of current.answers.values())
    if (answer.phase === 'queued' || answer.phase === 'sending') count += 1;
  return count;
}

/** An answer as the outbox kept it, back in the state (after a reload, or before the connection loads). */
export function fromOutboxEntry(entry: OutboxEntry): LocalAnswer {
  return { ...entry, phase: entry.state };
}

/**
 * True only while the host state on screen is the host's current one: a snapshot arrived on this page
 * and the socket is up. Anything else (the cached inbox, a dropped connection) is shown as not live.
 */
export function isLive(current: RemoteState): boolean {
  return current.status === 'connected' && current.host.hasSnapshot;
}

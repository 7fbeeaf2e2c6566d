import { io, type Socket } from 'socket.io-client';
import {
  REMOTE_NAMESPACE,
  REMOTE_PROTOCOL_VERSION,
  type EventBatch,
  type InteractionResolution,
  type RemoteClientToServerEvents,
  type RemoteServerToClientEvents,
  type RespondAck,
  type Snapshot,
} from '../../lib/contracts';
import { QUESTION_INPUT } from '../support/payloads';

const FIRST_QUESTION = QUESTION_INPUT.questions[0]?.question ?? '';

/** A distinct free-text answer per attempt, so the runtime's result tells which response won. */
export function answerText(requestId: string, attempt: number): string {
  return `answer ${requestId} #${attempt}`;
}

export interface RemoteRecord {
  /** Every response the host acknowledged as `accepted`, by requestId. */
  accepted: Map<string, { clientResponseId: string; text: string }[]>;
  /** The resolution the host reported in an ack (accepted or already-resolved). */
  resolutions: Map<string, InteractionResolution>;
  attempts: Map<string, number>;
}

/**
 * A reconnecting remote that answers every pending question it sees, retrying after
 * a lost ack with a fresh clientResponseId and a different answer. `hold` pauses answering.
 * `credential`: a device paired with the host (`pairBenchDevice`); it survives host restarts.
 */
export function answeringRemote(
  url: string,
  credential: string,
  options: { onRespond?: (requestId: string) => void; onAck?: (requestId: string, ack: RespondAck) => void } = {},
) {
  const socket: Socket<RemoteServerToClientEvents, RemoteClientToServerEvents> = io(`${url}${REMOTE_NAMESPACE}`, {
    auth: { credential, protocolVersion: REMOTE_PROTOCOL_VERSION },
    transports: ['websocket'],
    reconnectionDelay: 100,
    reconnectionDelayMax: 300,
  });
  const record: RemoteRecord = { accepted: new Map(), resolutions: new Map(), attempts: new Map() };
  const pending = new Set<string>();
  const inFlight = new Set<string>();
  let held = false;

  const answer = (requestId: string) => {
    if (held || inFlight.has(requestId) || record.resolutions.has(requestId) || !socket.connected) return;
    const attempt = (record.attempts.get(requestId) ?? 0) + 1;
    record.attempts.set(requestId, attempt);
    const clientResponseId = `${requestId}-attempt-${attempt}`;
    const text = answerText(requestId, attempt);
    inFlight.add(requestId);
    options.onRespond?.(requestId);
    socket.timeout(3_000).emit(
      'respond',
      {
        requestId,
        clientResponseId,
        response: { action: 'accept', content: { answers: { [FIRST_QUESTION]: text } } },
      },
      (error: Error | null, ack: RespondAck) => {
        inFlight.delete(requestId);
        if (error) return; // lost with the host: answered again after the next snapshot
        options.onAck?.(requestId, ack);
        if (!ack.ok) return;
        if (ack.status === 'accepted') {
          const list = record.accepted.get(requestId) ?? [];
          list.push({ clientResponseId, text });
          record.accepted.set(requestId, list);
        }
        record.resolutions.set(requestId, ack.resolution);
        pending.delete(requestId);
      },
    );
  };
  const answerAll = () => {
    for (const requestId of pending) answer(requestId);
  };

  socket.on('snapshot', (snapshot: Snapshot) => {
    pending.clear();
    for (const view of snapshot.pending) pending.add(view.requestId);
    answerAll();
  });
  socket.on('events', (batch: EventBatch) => {
    for (const event of batch.events) {
      if (event.type === 'interaction.requested') pending.add(event.interaction.requestId);
      if (event.type === 'interaction.resolved' || event.type === 'interaction.withdrawn') {
        pending.delete(event.type === 'interaction.resolved' ? event.resolution.requestId : event.requestId);
      }
    }
    answerAll();
  });
  return {
    socket,
    record,
    pending,
    hold(value: boolean) {
      held = value;
      if (!held) answerAll();
    },
    close: () => socket.disconnect(),
  };
}

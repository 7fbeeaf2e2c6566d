import {
  REMOTE_PROTOCOL_VERSION,
  type HostEvent,
  type InteractionResolution,
  type InteractionView,
  type RespondAck,
  type RespondCommand,
  type Snapshot,
} from '../../contracts';
import { type Outbox } from '../answer-queue';
import { type OutboxEntry } from '../outbox-db';
import { type Pairing } from '../pairing';

export const PAIRING: Pairing = {
  hostUrl: 'http://host.test',
  hostName: 'workstation',
  deviceId: 'phone',
  deviceName: 'Phone',
  credential: 'aw_d_phone',
};

/** The log every snapshot here comes from. */
export const LOG_ID = 'log-1';

export const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, second)).toISOString();

export function questionView(requestId: string, sessionId = 's1'): InteractionView {
  return {
    requestId,
    machine: { id: 'local', name: 'workstation' },
    sessionId,
    toolName: 'AskUserQuestion',
    createdAt: at(1),
    status: 'pending',
    autoResolution: { status: 'disabled' },
    kind: 'question',
    input: {
      questions: [
        {
          question: 'Which database?',
          header: 'Database',
          multiSelect: false,
          options: [
            { label: 'SQLite', description: 'a file' },
            { label: 'Postgres', description: 'a server' },
          ],
        },
      ],
    },
  };
}

export function snapshotOf(pending: InteractionView[], seq: number, serverTime = at(30)): Snapshot {
  return {
    protocolVersion: REMOTE_PROTOCOL_VERSION,
    hostVersion: 'test',
    serverTime,
    logId: LOG_ID,
    seq,
    hostName: 'workstation',
    pending,
    pendingTotal: pending.length,
    history: [],
    preferences: {
      askUserQuestionAutoResolutionEnabled: false,
      askUserQuestionAutoResolutionTimeoutMs: 60_000,
      notifyDelayMs: 0,
      notifyFinishedTurns: true,
      away: false,
    },
    devices: [],
    machines: [{ id: 'local', name: 'workstation', kind: 'hub', connectedAgents: 1 }],
  };
}

export function requestedEvent(seq: number, view: InteractionView): HostEvent {
  const { status: _status, autoResolution: _auto, resolution: _resolution, ...interaction } = view;
  return { seq, at: at(seq), type: 'interaction.requested', interaction };
}

export function resolution(requestId: string, clientResponseId?: string): InteractionResolution {
  return {
    requestId,
    response: { action: 'accept', content: { answers: { 'Which database?': 'SQLite' } } },
    resolvedBy: 'user',
    resolvedAt: at(40),
    ...(clientResponseId === undefined ? {} : { clientResponseId, device: { id: 'phone', label: 'Phone' } }),
  };
}

export function resolvedEvent(seq: number, resolved: InteractionResolution): HostEvent {
  return { seq, at: at(seq), type: 'interaction.resolved', resolution: resolved };
}

export function deliveredEvent(seq: number, requestId: string): HostEvent {
  return { seq, at: at(seq), type: 'interaction.delivered', requestId };
}

/** The ack a host gives the first response to an interaction. */
export function acceptedAck(command: RespondCommand): RespondAck {
  return { ok: true, status: 'accepted', resolution: resolution(command.requestId, command.clientResponseId) };
}

export function refusedAck(
  code: 'invalid-response' | 'rate-limited' | 'internal' | 'unknown-interaction' | 'storage-unavailable',
): RespondAck {
  return { ok: false, error: { code, message: `refused: ${code}` } };
}

/** An outbox in memory that records what was written. */
export class MemoryOutbox implements Outbox {
  readonly entries = new Map<string, OutboxEntry>();
  constructor(initial: OutboxEntry[] = []) {
    for (const entry of initial) this.entries.set(entry.clientResponseId, entry);
  }
  load() {
    return Promise.resolve([...this.entries.values()]);
  }
  put(entry: OutboxEntry) {
    this.entries.set(entry.clientResponseId, entry);
    return Promise.resolve();
  }
  delete(clientResponseId: string) {
    this.entries.delete(clientResponseId);
    return Promise.resolve();
  }
}

import { randomUUID } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import {
  REMOTE_NAMESPACE,
  REMOTE_PROTOCOL_VERSION,
  RespondAckSchema,
  type EventBatch,
  type InteractionRecord,
  type InteractionResponse,
  type RemoteClientToServerEvents,
  type RemoteServerToClientEvents,
  type RespondAck,
  type Snapshot,
  type TerminalAnswer,
} from '../../contracts';
import { type PreferencesPatch } from '../../contracts/preferences';
import { type PushClientToServerEvents } from '../../contracts/push';

/**
 * A phone in tests: a real socket.io client on '/remote' that tracks pending
 * interactions from the snapshot and live events, and answers when told to.
 */
export interface ScriptedRemote {
  pending(): InteractionRecord[];
  /** Resolves with the first pending interaction matching `match` (waits for it). */
  next(match?: (record: InteractionRecord) => boolean, timeoutMs?: number): Promise<InteractionRecord>;
  respond(requestId: string, response: InteractionResponse): Promise<RespondAck>;
  /**
   * Whether the interaction was withdrawn while this phone watched, the reason it was given, and what the
   * agent's terminal chose when it answered first (R18.6).
   */
  withdrawn(requestId: string): { reason: string | undefined; terminalAnswer?: TerminalAnswer } | undefined;
  /** Settings → preferences, as the app sends them; resolves with the host's ack. */
  updatePreferences(patch: PreferencesPatch): Promise<unknown>;
  /** Settings → Notifications → ntfy topic (null removes it); resolves with the host's ack. */
  setNtfyTopic(topicUrl: string | null): Promise<unknown>;
  close(): void;
}

/** `credential`: a paired device's (lib/host/test-support/devices.ts `pairDevice`). */
export async function connectScriptedRemote(url: string, credential: string): Promise<ScriptedRemote> {
  const socket: Socket<RemoteServerToClientEvents, RemoteClientToServerEvents & PushClientToServerEvents> = io(
    `${url}${REMOTE_NAMESPACE}`,
    {
      auth: { credential, protocolVersion: REMOTE_PROTOCOL_VERSION },
      transports: ['websocket'],
      forceNew: true,
    },
  );
  const open = new Map<string, InteractionRecord>();
  const withdrawn = new Map<string, { reason: string | undefined; terminalAnswer?: TerminalAnswer }>();
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };

  socket.on('snapshot', (snapshot: Snapshot) => {
    for (const view of snapshot.pending) {
      const {
        status: _s,
        autoResolution: _a,
        resolution: _r,
        deliveredAt: _d,
        withdrawnAt: _w,
        withdrawnReason: _wr,
        terminalAnswer: _ta,
        ...record
      } = view;
      open.set(view.requestId, record as InteractionRecord);
    }
    changed();
  });
  socket.on('events', (batch: EventBatch) => {
    for (const event of batch.events) {
      if (event.type === 'interaction.requested') open.set(event.interaction.requestId, event.interaction);
      else if (event.type === 'interaction.resolved') open.delete(event.resolution.requestId);
      else if (event.type === 'interaction.withdrawn') {
        open.delete(event.requestId);
        if (!withdrawn.has(event.requestId))
          withdrawn.set(event.requestId, {
            reason: event.reason,
            ...(event.terminalAnswer ? { terminalAnswer: event.terminalAnswer } : {}),
          });
      }
    }
    changed();
  });

  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });

  return {
    pending: () => [...open.values()],
    next(match = () => true, timeoutMs = 10_000) {
      return new Promise<InteractionRecord>((resolve, reject) => {
        const check = () => {
          const found = [...open.values()].find(match);
          if (!found) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(
            new Error(
              `no matching pending interaction within ${timeoutMs} ms; pending: ${[...open.keys()].join(', ')}`,
            ),
          );
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    respond(requestId, response) {
      return new Promise<RespondAck>((resolve) => {
        socket.emit('respond', { requestId, clientResponseId: randomUUID(), response }, (raw: unknown) => {
          const parsed = RespondAckSchema.safeParse(raw);
          resolve(
            parsed.success
              ? parsed.data
              : { ok: false, error: { code: 'internal', message: `unreadable ack: ${JSON.stringify(raw)}` } },
          );
        });
      });
    },
    withdrawn: (requestId) => withdrawn.get(requestId),
    updatePreferences: (patch) =>
      new Promise((resolve) => socket.emit('preferences:update', patch, (ack: unknown) => resolve(ack))),
    setNtfyTopic: (topicUrl) =>
      new Promise((resolve) => socket.emit('push:ntfy', { topicUrl }, (ack: unknown) => resolve(ack))),
    close: () => {
      socket.disconnect();
    },
  };
}

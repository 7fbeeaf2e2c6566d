import { type InteractionResponse } from '../../contracts';
import { createConnection, type ConnectionOptions } from '../connection';
import { type ProtocolError } from '../protocol-error';
import { createRemoteStore } from '../store';
import { FakeHostSocket } from './fake-host-socket';
import { MemoryOutbox, PAIRING } from './fixtures';

export const ANSWER: InteractionResponse = { action: 'accept', content: { answers: { 'Which database?': 'SQLite' } } };

/** A connection over fake sockets, an in-memory outbox and ids answer-1, answer-2, …; records what it reports. */
export function connectionHarness(
  options: Partial<Omit<ConnectionOptions, 'outbox'>> & { outbox?: MemoryOutbox } = {},
) {
  const store = createRemoteStore();
  const sockets: FakeHostSocket[] = [];
  const outbox = options.outbox ?? new MemoryOutbox();
  const protocolErrors: ProtocolError[] = [];
  const logs: string[] = [];
  const synced: ('snapshot' | 'resume')[] = [];
  let ids = 0;
  const connection = createConnection({
    store,
    openSocket(url, auth) {
      const socket = new FakeHostSocket(url, auth);
      sockets.push(socket);
      return socket;
    },
    newId: () => `answer-${(ids += 1)}`,
    onProtocolError: (error) => protocolErrors.push(error),
    log: (line) => logs.push(line),
    onSynced: (how) => synced.push(how),
    ...options,
    outbox,
  });
  return {
    store,
    connection,
    outbox,
    sockets,
    protocolErrors,
    logs,
    synced,
    /** The socket opened last. */
    socket(): FakeHostSocket {
      const socket = sockets.at(-1);
      if (!socket) throw new Error('no socket was opened');
      return socket;
    },
    state: () => store.getState(),
    answer: (requestId: string) => store.getState().answers.get(requestId),
    start: () => connection.start(PAIRING),
  };
}

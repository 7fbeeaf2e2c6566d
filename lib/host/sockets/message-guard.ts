import { type Event as SocketEvent } from 'socket.io';
import { jsonShapeProblem, MESSAGE_SHAPE_LIMITS, type WireError } from '../../contracts';
import { type MessageIncidents } from '../message-incidents';
import { LogContendedError } from '../log-contended-error';
import { failure } from '../registry-types';
import { StorageUnavailableError } from '../store/storage-health';

/** Who a connection's messages come from, and where refusals and failures of them are logged. */
export interface MessageSource {
  /** For the log: "machine laptop", "the hub's agents", "device Anna's phone". */
  who: string;
  incidents: MessageIncidents;
}

/**
 * The reply a caller gets when processing its message threw: a full disk says so, and so does a log other hub
 * processes kept moving (R20.3): nothing was saved, and the caller keeps what it sent and tries again. Anything
 * else is internal.
 */
export function failureFor(error: unknown): { ok: false; error: WireError } {
  return error instanceof StorageUnavailableError || error instanceof LogContendedError
    ? failure('storage-unavailable', error.message)
    : failure('internal', 'The host could not process this message');
}

/** Logs what processing a message threw; the disk's refusals are logged once by the storage health instead. */
export function reportFailure(source: MessageSource, event: string, error: unknown): void {
  if (!(error instanceof StorageUnavailableError)) source.incidents.failed(source.who, event, error);
}

/**
 * socket.use middleware: a message nested or sized beyond MESSAGE_SHAPE_LIMITS is refused
 * before any handler, schema or JSON.stringify walks it, whatever the namespace and whoever sent it (R12.5).
 */
export function shapeGuard(source: MessageSource) {
  return (packet: SocketEvent, next: (error?: Error) => void): void => {
    const [event, ...args] = packet;
    const ack = args.at(-1);
    const payload = typeof ack === 'function' ? args.slice(0, -1) : args;
    const problem = jsonShapeProblem(payload, MESSAGE_SHAPE_LIMITS);
    if (problem === undefined) {
      next();
      return;
    }
    const name = String(event);
    source.incidents.refused(source.who, name, `the message ${problem}`);
    if (typeof ack === 'function') ack(failure('invalid-message', `'${name}' refused: the message ${problem}`));
  };
}

/**
 * A socket listener that cannot take the host down (R12.5): whatever it throws, or the promise it
 * returns rejects with, becomes an error reply to its ack (when it has one) and a line in the host's
 * log naming the message and the caller.
 */
export function contained<Args extends unknown[]>(
  event: string,
  source: MessageSource,
  listener: (...args: Args) => void | Promise<void>,
): (...args: Args) => void {
  const fail = (args: Args, error: unknown) => {
    reportFailure(source, event, error);
    const ack: unknown = args.at(-1);
    if (typeof ack === 'function') ack(failureFor(error));
  };
  return (...args: Args): void => {
    try {
      listener(...args)?.catch((error: unknown) => fail(args, error));
    } catch (error) {
      fail(args, error);
    }
  };
}

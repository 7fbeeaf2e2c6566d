import { type Event as SocketEvent } from 'socket.io';
import type * as z from 'zod/mini';
import { safeParseHot } from '../../core';
import { failure } from '../registry-types';
import { summarizeIssues } from './handshake';
import { failureFor, reportFailure, type MessageSource } from './message-guard';
import { TokenBucket, type RateLimit } from './token-bucket';

type Reply<Result> = (result: Result) => void;

/**
 * Runs one client command: parse with zod (R10.4, compiled once hot), execute, reply through the
 * ack once the command's commit is durable. A client may send anything in the ack's place, and a bug
 * or a full disk must not crash the host, so both are contained here: the caller gets an error reply,
 * the log gets a line. Never rejects.
 */
export async function handleCommand<Schema extends z.core.$ZodType, Result>(options: {
  event: string;
  schema: Schema;
  payload: unknown;
  ack: unknown;
  source: MessageSource;
  run: (command: z.infer<Schema>) => Result | Promise<Result>;
}): Promise<void> {
  const { event, source } = options;
  const reply: Reply<Result | ReturnType<typeof failure>> =
    typeof options.ack === 'function' ? (options.ack as Reply<Result | ReturnType<typeof failure>>) : () => undefined;
  const parsed = safeParseHot(options.schema, options.payload);
  if (!parsed.success) {
    const rule = summarizeIssues(parsed.error);
    source.incidents.refused(source.who, event, rule);
    reply(failure('invalid-message', rule));
    return;
  }
  let result: Result;
  try {
    result = await options.run(parsed.data);
  } catch (error) {
    reportFailure(source, event, error);
    reply(failureFor(error));
    return;
  }
  reply(result);
}

/** socket.use middleware: refuse messages beyond the connection's budget without running them. */
export function rateLimiter(limit: RateLimit, costOf: (packet: SocketEvent) => number = () => 1) {
  const bucket = new TokenBucket(limit.capacity, limit.refillPerSecond);
  return (packet: SocketEvent, next: (error?: Error) => void): void => {
    if (bucket.take(costOf(packet))) {
      next();
      return;
    }
    const ack = packet[packet.length - 1];
    if (typeof ack === 'function') ack(failure('rate-limited', 'Too many messages; slow down'));
  };
}

import * as z from 'zod/mini';
import {
  errorMessage,
  PresenceSchema,
  PushNtfyCommandSchema,
  PushSubscribeCommandSchema,
  PushTestCommandSchema,
  PushUnsubscribeCommandSchema,
  type PushFailure,
  type PushStatusAck,
} from '../../contracts';
import { type PushService } from './push-service';

/** The part of a socket.io server socket these handlers use (a remote connection). */
export interface PushSocket {
  readonly id: string;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

type Ack = (result: unknown) => void;

/**
 * Push messages of one remote connection (`/remote` namespace), every one zod-validated
 * and acked; invalid input gets `invalid-message` and changes nothing (R10.4).
 * `deviceId` comes from the connection's authenticated handshake, never from the message.
 */
export function registerPushSocketHandlers(socket: PushSocket, deviceId: string, service: PushService): void {
  handle(socket, 'push:vapid-key', undefined, () => ({ ok: true, publicKey: service.vapidPublicKey }));
  handle(socket, 'push:status', undefined, async () => ({ ok: true, status: await service.status(deviceId) }));
  handle(socket, 'push:subscribe', PushSubscribeCommandSchema, async (command): Promise<PushStatusAck> => {
    const outcome = await service.subscribe(deviceId, command.subscription);
    return outcome.ok ? outcome : { ok: false, error: { code: 'invalid-message', message: outcome.message } };
  });
  handle(socket, 'push:unsubscribe', PushUnsubscribeCommandSchema, async () => ({
    ok: true,
    status: await service.unsubscribe(deviceId),
  }));
  handle(socket, 'push:ntfy', PushNtfyCommandSchema, async (command): Promise<PushStatusAck> => {
    const outcome = await service.setNtfyTopic(deviceId, command.topicUrl);
    return outcome.ok ? outcome : { ok: false, error: { code: 'invalid-message', message: outcome.message } };
  });
  handle(socket, 'push:test', PushTestCommandSchema, () => service.test(deviceId));

  socket.on('presence', (...args: unknown[]) => {
    const parsed = PresenceSchema.safeParse(args[0]);
    if (parsed.success) service.presence.set(deviceId, socket.id, parsed.data.visible);
    const ack = args.at(-1);
    if (typeof ack === 'function') (ack as Ack)(parsed.success ? { ok: true } : invalid(parsed.error));
  });
  socket.on('disconnect', () => service.presence.drop(deviceId, socket.id));
}

/**
 * Commands without a schema take only an ack; with one, `(payload, ack)`. A message
 * without an ack is ignored: every push command is a request that expects an answer.
 */
function handle<Schema extends z.core.$ZodType>(
  socket: PushSocket,
  event: string,
  schema: Schema | undefined,
  run: (command: z.infer<Schema>) => unknown,
): void {
  socket.on(event, (...args: unknown[]) => {
    const ack = args.at(-1);
    if (typeof ack !== 'function') return;
    const reply = ack as Ack;
    let command: z.infer<Schema> | undefined;
    if (schema) {
      const parsed = z.safeParse(schema, args.length > 1 ? args[0] : undefined);
      if (!parsed.success) {
        reply(invalid(parsed.error));
        return;
      }
      command = parsed.data;
    }
    Promise.resolve()
      .then(() => run(command as z.infer<Schema>))
      .then(reply, (error: unknown) =>
        reply({ ok: false, error: { code: 'internal', message: errorMessage(error) } } satisfies PushFailure),
      );
  });
}

function invalid(error: z.core.$ZodError): PushFailure {
  const message = error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`)
    .join('; ');
  return { ok: false, error: { code: 'invalid-message', message } };
}

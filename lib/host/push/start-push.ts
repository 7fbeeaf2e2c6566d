import { type Socket } from 'socket.io';
import { z } from 'zod';
import { REMOTE_NAMESPACE } from '../../contracts';
import { type Host } from '../create-host';
import { createPushService, type CreatePushServiceOptions, type PushRuntime } from './create-push-service';
import { registerPushSocketHandlers } from './socket-handlers';

const AuthenticatedSocketDataSchema = z.object({ auth: z.object({ device: z.object({ id: z.string().min(1) }) }) });

export type StartPushOptions = Omit<CreatePushServiceOptions, 'dataDir' | 'publicUrl'>;

/**
 * Web Push for a running host: keys and subscriptions in its data dir, its live event
 * stream, and the push messages on every authenticated `/remote` connection (a second
 * `connection` listener: the namespace's handshake guard has already run).
 * Close it after `host.close()`.
 */
export async function startPush(
  host: Pick<Host, 'dataDir' | 'publicUrl' | 'registry' | 'io'>,
  options: StartPushOptions = {},
): Promise<PushRuntime> {
  const push = await createPushService({ ...options, dataDir: host.dataDir, publicUrl: () => host.publicUrl });
  const detach = push.service.attach(host.registry);
  const remote = host.io.of(REMOTE_NAMESPACE);
  const onConnection = (socket: Socket) => {
    const data = AuthenticatedSocketDataSchema.safeParse(socket.data);
    if (data.success) registerPushSocketHandlers(socket, data.data.auth.device.id, push.service);
  };
  remote.on('connection', onConnection);
  return {
    service: push.service,
    async close() {
      remote.off('connection', onConnection);
      detach();
      await push.close();
    },
  };
}

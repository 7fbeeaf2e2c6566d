import { type Socket } from 'socket.io';
import { z } from 'zod';
import { REMOTE_NAMESPACE } from '../../contracts';
import { type Host } from '../create-host';
import { createPushService, type CreatePushServiceOptions, type PushRuntime } from './create-push-service';
import { registerPushSocketHandlers } from './socket-handlers';

const AuthenticatedSocketDataSchema = z.object({
  principal: z.object({ kind: z.literal('device'), id: z.string().min(1) }),
});

export type StartPushOptions = Omit<CreatePushServiceOptions, 'dataDir' | 'publicUrl'>;

/**
 * Web Push for a running host: keys and subscriptions in its data dir, its live event
 * stream, and the push messages on every authenticated `/remote` connection (a second
 * `connection` listener: the namespace's handshake guard has already run).
 * Close it after `host.close()`.
 */
export async function startPush(
  host: Pick<Host, 'dataDir' | 'publicUrl' | 'registry' | 'io' | 'devices'>,
  options: StartPushOptions = {},
): Promise<PushRuntime> {
  const push = await createPushService({ ...options, dataDir: host.dataDir, publicUrl: () => host.publicUrl });
  const detach = push.service.attach(host.registry);
  // Subscriptions of devices this host no longer lets in (revoked, or ids from before pairing) go (R16.5, R16.7).
  const dropped = push.service.forgetDevicesExcept((deviceId) => host.devices.isActive(deviceId));
  if (dropped.length > 0)
    options.log?.(`push: removed the subscriptions and ntfy topics of ${dropped.length} device(s) no longer paired`);
  // A revoked device's subscription and ntfy topic go with it (R16.5, R12.15).
  const stopForgetting = host.devices.onRevoked((deviceId) => push.service.forgetDevice(deviceId));
  const remote = host.io.of(REMOTE_NAMESPACE);
  const onConnection = (socket: Socket) => {
    // The device id comes from its credential (R16.1), never from anything the app sends.
    const data = AuthenticatedSocketDataSchema.safeParse(socket.data);
    if (data.success) registerPushSocketHandlers(socket, data.data.principal.id, push.service);
  };
  remote.on('connection', onConnection);
  return {
    service: push.service,
    async close() {
      remote.off('connection', onConnection);
      stopForgetting();
      detach();
      await push.close();
    },
  };
}

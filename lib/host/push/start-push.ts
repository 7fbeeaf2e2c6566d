import { type Socket } from 'socket.io';
import { z } from 'zod';
import { errorMessage, REMOTE_NAMESPACE } from '../../contracts';
import { HostStartError } from '../errors';
import { type Host } from '../create-host';
import { createPushService, type CreatePushServiceOptions, type PushRuntime } from './create-push-service';
import { registerPushSocketHandlers } from './socket-handlers';

const AuthenticatedSocketDataSchema = z.object({
  principal: z.object({ kind: z.literal('device'), id: z.string().min(1) }),
});

export type StartPushOptions = Omit<CreatePushServiceOptions, 'dataDir' | 'publicUrl' | 'shared'>;

/**
 * Web Push for a running host: keys and subscriptions in its data dir, its live event
 * stream, and the push messages on every authenticated `/remote` connection (a second
 * `connection` listener: the namespace's handshake guard has already run).
 * Close it after `host.close()`.
 */
export async function startPush(
  host: Pick<Host, 'dataDir' | 'publicUrl' | 'registry' | 'io' | 'devices' | 'leadership' | 'sharedPush'>,
  options: StartPushOptions = {},
): Promise<PushRuntime> {
  const push = await createPushService({
    ...options,
    dataDir: host.dataDir,
    publicUrl: () => host.publicUrl,
    ...(host.sharedPush ? { shared: { ...host.sharedPush, leading: host.leadership.leading } } : {}),
  });
  // A team hub's replicas send only while they lead (R20.62); a personal hub always leads.
  const stopFollowingLeadership = host.leadership.onChange((leading) => push.service.lead(leading));
  const detach = push.service.attach(host.registry);
  const log = (line: string) => options.log?.(line);
  // Subscriptions of devices this host no longer lets in (revoked, or ids from before pairing) go (R16.5, R16.7).
  let dropped: string[];
  try {
    dropped = await push.service.forgetDevicesExcept((deviceId) => host.devices.isActive(deviceId));
  } catch (error) {
    stopFollowingLeadership();
    detach();
    await push.close();
    throw new HostStartError(`Cannot read the push subscriptions: ${errorMessage(error)}`, { cause: error });
  }
  if (dropped.length > 0)
    log(`push: removed the subscriptions and ntfy topics of ${dropped.length} device(s) no longer paired`);
  // A revoked device's subscription and ntfy topic go with it (R16.5, R12.15), on every replica of a team hub.
  const stopForgetting = host.devices.onRevoked((deviceId) => {
    push.service
      .forgetDevice(deviceId)
      .catch((error: unknown) =>
        log(`push: cannot remove the subscription of removed device ${deviceId}: ${errorMessage(error)}`),
      );
  });
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
      stopFollowingLeadership();
      detach();
      await push.close();
    },
  };
}

export {
  createPushService,
  DEFAULT_VAPID_SUBJECT,
  type CreatePushServiceOptions,
  type PushRuntime,
} from './create-push-service';
export { PushService, type PushHostPort, type PushServiceOptions } from './push-service';
export { registerPushSocketHandlers, type PushSocket } from './socket-handlers';
export { startPush, type StartPushOptions } from './start-push';

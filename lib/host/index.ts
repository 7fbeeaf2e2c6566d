export {
  createHost,
  DEFAULT_BIND_HOST,
  DEFAULT_PAIR_TTL_MS,
  DEFAULT_PORT,
  type Host,
  type HostOptions,
} from './create-host';
export { HostStartError } from './errors';
export { readJsonBody } from '../http/json-body';
export { type HttpRoute, type HttpRouteContext, type HttpRouteHandler } from './http/routes';
export { type LifecycleEvent } from './registry-types';
export { type EventStore } from './store/event-store';
export { MemoryEventStore } from './store/memory-event-store';
export { SqliteEventStore } from './store/sqlite-event-store';
export { HOST_VERSION } from './version';
export { type InteractionRegistry } from './registry';
export { formatLifecycle } from './lifecycle-log';

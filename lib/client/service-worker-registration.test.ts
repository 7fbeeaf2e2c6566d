import { describe, expect, it, vi } from 'vitest';
import {
  createServiceWorkerController,
  type ServiceWorkerControllerOptions,
  type WorkboxLike,
} from './service-worker-registration';

type Event = 'waiting' | 'activated' | 'controlling';

class FakeWorkbox implements WorkboxLike {
  readonly listeners = new Map<Event, (() => void)[]>();
  skipWaitingMessages = 0;
  updates = 0;
  constructor(private readonly registration: Promise<{ active: unknown } | undefined>) {}
  register() {
    return this.registration;
  }
  update() {
    this.updates += 1;
    return Promise.resolve();
  }
  messageSkipWaiting() {
    this.skipWaitingMessages += 1;
  }
  addEventListener(type: Event, listener: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: Event) {
    for (const listener of this.listeners.get(type) ?? []) listener();
  }
}

function setup(overrides: Partial<ServiceWorkerControllerOptions> = {}, active = false) {
  const wb = new FakeWorkbox(Promise.resolve({ active: active ? {} : null }));
  const reload = vi.fn();
  let foreground = () => {};
  const controller = createServiceWorkerController({
    enabled: true,
    supported: () => true,
    createWorkbox: () => wb,
    reload,
    onForeground: (listener) => {
      foreground = listener;
    },
    ...overrides,
  });
  return { controller, wb, reload, foreground: () => foreground() };
}

/** workbox-window loads lazily, so its listeners attach a few microtasks after register(). */
const attached = (wb: FakeWorkbox) => vi.waitFor(() => expect(wb.listeners.size).toBe(3));

describe('service worker registration', () => {
  it('[R9.1] stays off in development so stale caches never hide code changes', () => {
    const createWorkbox = vi.fn();
    const { controller } = setup({ enabled: false, createWorkbox });
    controller.register();
    expect(controller.getSnapshot().status).toBe('disabled');
    expect(createWorkbox).not.toHaveBeenCalled();
  });

  it('[R9.1] reports browsers without service workers as unsupported', () => {
    const { controller } = setup({ supported: () => false });
    controller.register();
    expect(controller.getSnapshot().status).toBe('unsupported');
  });

  it('[R9.1] becomes ready when the first worker activates, without reloading', async () => {
    const { controller, wb, reload } = setup();
    const seen: string[] = [];
    controller.subscribe(() => seen.push(controller.getSnapshot().status));
    controller.register();
    controller.register();
    expect(controller.getSnapshot().status).toBe('registering');
    await attached(wb);
    wb.emit('activated');
    wb.emit('controlling');
    await vi.waitFor(() => expect(controller.getSnapshot().status).toBe('ready'));
    expect(seen).toEqual(['registering', 'ready']);
    expect(reload).not.toHaveBeenCalled();
  });

  it('[R9.1] is ready at once when a worker was already active', async () => {
    const { controller } = setup({}, true);
    controller.register();
    await vi.waitFor(() => expect(controller.getSnapshot().status).toBe('ready'));
  });

  it('[R9.1] offers a waiting update and reloads only after the user applies it', async () => {
    const { controller, wb, reload } = setup();
    controller.register();
    await attached(wb);
    controller.applyUpdate();
    expect(wb.skipWaitingMessages).toBe(0);
    wb.emit('waiting');
    expect(controller.getSnapshot().updateWaiting).toBe(true);
    controller.applyUpdate();
    expect(wb.skipWaitingMessages).toBe(1);
    expect(reload).not.toHaveBeenCalled();
    wb.emit('controlling');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('[R9.1] looks for a new version when the app returns to the foreground', async () => {
    const { controller, wb, foreground } = setup();
    controller.register();
    await attached(wb);
    foreground();
    expect(wb.updates).toBe(1);
  });

  it('[R9.1] reports a failed registration', async () => {
    const wb = new FakeWorkbox(Promise.reject(new Error('ServiceWorker script evaluation failed')));
    const { controller } = setup({ createWorkbox: () => wb });
    controller.register();
    await vi.waitFor(() => expect(controller.getSnapshot().status).toBe('error'));
  });

  it('[R9.1] reports workbox-window failing to load (e.g. offline before first cache)', async () => {
    const { controller } = setup({ createWorkbox: () => Promise.reject(new Error('chunk load failed')) });
    controller.register();
    await vi.waitFor(() => expect(controller.getSnapshot().status).toBe('error'));
  });
});

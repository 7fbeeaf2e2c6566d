import { useEffect, useSyncExternalStore } from 'react';

/** Where the service worker is in its life, as far as the page can tell. */
export type ServiceWorkerStatus =
  | 'idle' // not asked to register yet
  | 'disabled' // `next dev`: no worker, so stale caches never hide code changes
  | 'unsupported' // no navigator.serviceWorker (old browser, or plain http on a LAN address)
  | 'registering'
  | 'ready' // a worker is active for this page
  | 'error';

export interface ServiceWorkerState {
  status: ServiceWorkerStatus;
  /** A new version is installed and waits for the user's go-ahead (show the update prompt). */
  updateWaiting: boolean;
}

export interface ServiceWorkerApi extends ServiceWorkerState {
  /** Activates the waiting version, then reloads once it controls the page. */
  applyUpdate(): void;
}

/** The part of workbox-window's `Workbox` this module uses (a fake in unit tests). */
export interface WorkboxLike {
  register(): Promise<{ active: unknown } | undefined>;
  update(): Promise<unknown>;
  messageSkipWaiting(): void;
  addEventListener(type: 'waiting' | 'activated' | 'controlling', listener: () => void): void;
}

export interface ServiceWorkerControllerOptions {
  enabled: boolean;
  supported: () => boolean;
  /** May load workbox-window lazily: registering a worker is never first-screen work. */
  createWorkbox: () => WorkboxLike | Promise<WorkboxLike>;
  reload: () => void;
  /** Calls back when the app returns to the foreground, to look for a new version then. */
  onForeground: (listener: () => void) => void;
}

export interface ServiceWorkerController {
  getSnapshot(): ServiceWorkerState;
  subscribe(listener: () => void): () => void;
  register(): void;
  applyUpdate(): void;
}

export function createServiceWorkerController(options: ServiceWorkerControllerOptions): ServiceWorkerController {
  let state: ServiceWorkerState = { status: 'idle', updateWaiting: false };
  let workbox: WorkboxLike | undefined;
  let reloadRequested = false;
  const listeners = new Set<() => void>();

  function set(patch: Partial<ServiceWorkerState>): void {
    state = { ...state, ...patch };
    for (const listener of listeners) listener();
  }

  function register(): void {
    if (state.status !== 'idle') return;
    if (!options.enabled) return set({ status: 'disabled' });
    if (!options.supported()) return set({ status: 'unsupported' });
    set({ status: 'registering' });
    Promise.resolve()
      .then(() => options.createWorkbox())
      .then(follow, () => set({ status: 'error' }));
  }

  function follow(wb: WorkboxLike): void {
    workbox = wb;
    // Also fires at load when a version was already waiting (wasWaitingBeforeRegister).
    wb.addEventListener('waiting', () => set({ updateWaiting: true }));
    wb.addEventListener('activated', () => set({ status: 'ready' }));
    wb.addEventListener('controlling', () => {
      // Only the update the user asked for reloads the page; the first install just takes control.
      if (reloadRequested) options.reload();
    });
    wb.register().then(
      (registration) => {
        // A worker that was already active sends no 'activated' event to this page.
        if (registration?.active && state.status === 'registering') set({ status: 'ready' });
      },
      () => set({ status: 'error' }),
    );
    options.onForeground(() => {
      wb.update().catch(() => undefined);
    });
  }

  function applyUpdate(): void {
    if (!workbox || !state.updateWaiting) return;
    reloadRequested = true;
    workbox.messageSkipWaiting();
  }

  return {
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    register,
    applyUpdate,
  };
}

const SERVER_STATE: ServiceWorkerState = { status: 'idle', updateWaiting: false };
let controller: ServiceWorkerController | undefined;

function browserController(): ServiceWorkerController {
  controller ??= createServiceWorkerController({
    enabled: process.env.NODE_ENV === 'production',
    supported: () => 'serviceWorker' in navigator,
    createWorkbox: () => import('workbox-window').then(({ Workbox }) => new Workbox('/sw.js')),
    reload: () => window.location.reload(),
    onForeground(listener) {
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'visible') listener();
      });
    },
  });
  return controller;
}

/** Runs `work` once the page has loaded (now, if it has): installing a worker competes with the first screen. */
function afterLoad(work: () => void): () => void {
  if (document.readyState === 'complete') {
    work();
    return () => undefined;
  }
  window.addEventListener('load', work, { once: true });
  return () => window.removeEventListener('load', work);
}

/**
 * Registers `/sw.js` once (on first use, after the page's load event) and follows it. Render an update prompt while
 * `updateWaiting` is true and call `applyUpdate()` when the user accepts it.
 */
export function useServiceWorker(): ServiceWorkerApi {
  const state = useSyncExternalStore(
    (listener) => browserController().subscribe(listener),
    () => browserController().getSnapshot(),
    () => SERVER_STATE,
  );
  useEffect(() => afterLoad(() => browserController().register()), []);
  return { ...state, applyUpdate: () => browserController().applyUpdate() };
}

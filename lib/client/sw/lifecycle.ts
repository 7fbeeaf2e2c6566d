import { clientsClaim } from 'workbox-core';
import { workerScope } from './worker-scope';

/**
 * A new version waits until the page asks for it (workbox-window's `messageSkipWaiting`
 * after the user accepts the update prompt), so an open card is never swapped mid-answer.
 * The very first worker takes control at once, so the app works offline without a reload.
 */
export function installLifecycle(): void {
  workerScope.addEventListener('message', (event) => {
    const data: unknown = event.data;
    if (typeof data === 'object' && data !== null && 'type' in data && data.type === 'SKIP_WAITING') {
      void workerScope.skipWaiting();
    }
  });
  clientsClaim();
}

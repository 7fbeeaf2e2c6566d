import { type PrecacheEntry } from 'workbox-precaching';

/**
 * The service worker globals this worker uses. The project compiles with the DOM lib only;
 * a `/// <reference lib="webworker" />` here would add worker globals to every file of the app.
 */
export interface WorkerScope {
  skipWaiting(): Promise<void>;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

export const workerScope = self as unknown as WorkerScope;

/**
 * The precache list. The bundle must contain the text `self.__WB_MANIFEST` exactly once:
 * Workbox's injectManifest replaces it with the list of files of the static export.
 */
export const precacheManifest: (PrecacheEntry | string)[] = (
  self as unknown as { __WB_MANIFEST: (PrecacheEntry | string)[] }
).__WB_MANIFEST;

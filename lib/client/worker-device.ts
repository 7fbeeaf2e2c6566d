import { CACHE_STORE, run } from './outbox-db';

/**
 * What the service worker needs to answer from a notification (R14.10), kept in IndexedDB where it can read it:
 * the device's own credential (never in a push payload) and the host it speaks to, and this device's choice of
 * answer buttons on its notifications (R14.12). One record, beside the cached host state.
 */
export interface WorkerDevice {
  /** Empty: the origin that served the app. */
  hostUrl: string;
  deviceId: string;
  credential: string;
  /** "Answer buttons on notifications" (Settings); on unless turned off. */
  answerButtons: boolean;
}

const KEY = 'worker-device';

export async function readWorkerDevice(): Promise<WorkerDevice | undefined> {
  const value = await run('readonly', (store) => store.get(KEY) as IDBRequest<unknown>, CACHE_STORE);
  return isWorkerDevice(value) ? value : undefined;
}

/** Stores this pairing for the worker, keeping the device's button choice; null forgets it. */
export async function rememberWorkerDevice(
  pairing: { hostUrl: string; deviceId: string; credential: string } | null,
): Promise<void> {
  if (!pairing) {
    await run('readwrite', (store) => store.delete(KEY), CACHE_STORE);
    return;
  }
  const known = await readWorkerDevice().catch(() => undefined);
  const { hostUrl, deviceId, credential } = pairing;
  const next: WorkerDevice = { hostUrl, deviceId, credential, answerButtons: known?.answerButtons ?? true };
  if (known && sameRecord(known, next)) return;
  await run('readwrite', (store) => store.put(next, KEY), CACHE_STORE);
}

/** Forgets the credential of device `deviceId` (revoked, R16.5), not one stored since for a new pairing. */
export async function forgetWorkerDevice(deviceId: string): Promise<void> {
  const known = await readWorkerDevice();
  if (known?.deviceId === deviceId) await run('readwrite', (store) => store.delete(KEY), CACHE_STORE);
}

export async function setAnswerButtons(on: boolean): Promise<void> {
  const known = await readWorkerDevice();
  if (!known) return;
  await run(
    'readwrite',
    (store) => store.put({ ...known, answerButtons: on } satisfies WorkerDevice, KEY),
    CACHE_STORE,
  );
}

function sameRecord(a: WorkerDevice, b: WorkerDevice): boolean {
  return (
    a.hostUrl === b.hostUrl &&
    a.deviceId === b.deviceId &&
    a.credential === b.credential &&
    a.answerButtons === b.answerButtons
  );
}

function isWorkerDevice(value: unknown): value is WorkerDevice {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.hostUrl === 'string' &&
    typeof record.deviceId === 'string' &&
    typeof record.credential === 'string' &&
    record.credential !== '' &&
    typeof record.answerButtons === 'boolean'
  );
}

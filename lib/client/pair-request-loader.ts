import { type PairRequest } from '../contracts/pairing-api';
import { errorMessage } from '../contracts/unknown';
import type * as PairRequestModule from './pair-request';

// The pair page calls this; ./pair-request reads the host's reply with the contracts' zod schemas, so it
// loads once the page is up (preloadPairRequest) rather than with the page's first screen (R13.4).

let loading: Promise<typeof PairRequestModule> | null = null;

function load(): Promise<typeof PairRequestModule> {
  loading ??= import('./pair-request').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** Starts loading the request code, so a tap on Pair does not wait for it. */
export function preloadPairRequest(): void {
  load().catch(() => undefined);
}

/** As ./pair-request's, and `unreachable` when its code cannot be loaded (the app's server is gone). */
export async function redeemPairingCode(hostUrl: string, request: PairRequest): Promise<PairRequestModule.PairOutcome> {
  let requests: typeof PairRequestModule;
  try {
    requests = await load();
  } catch (error) {
    return { ok: false, kind: 'unreachable', message: errorMessage(error) };
  }
  return requests.redeemPairingCode(hostUrl, request);
}

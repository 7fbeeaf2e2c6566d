import './zod-csp';
import { ApiErrorSchema, PairResponseSchema, type PairRequest } from '../contracts/pairing-api';
import { PAIR_API_PATH } from '../contracts/pairing-link';
import { errorMessage } from '../contracts/unknown';
import { normalizeHostUrl, type Pairing } from './pairing';

/** Why pairing did not happen; `code-invalid` gets the plain "used or expired" page (R16.3). */
export type PairFailure =
  | { kind: 'code-invalid'; message: string }
  | { kind: 'rate-limited'; message: string }
  | { kind: 'unreachable'; message: string }
  | { kind: 'refused'; message: string };

export type PairOutcome = { ok: true; pairing: Pairing } | ({ ok: false } & PairFailure);

/**
 * Exchanges a one-time code for this device's credential (R16.2): `POST <host>/api/pair`.
 * The code goes in the body, never in a URL; nothing is stored unless the host says yes.
 */
export async function redeemPairingCode(
  hostUrl: string,
  request: PairRequest,
  fetchImpl: typeof fetch = fetch,
): Promise<PairOutcome> {
  const base = normalizeHostUrl(hostUrl);
  let response: Response;
  try {
    response = await fetchImpl(`${base}${PAIR_API_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
      cache: 'no-store',
      credentials: 'omit',
    });
  } catch (error) {
    return { ok: false, kind: 'unreachable', message: errorMessage(error) };
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const refusal = ApiErrorSchema.safeParse(body);
    const message = refusal.success ? refusal.data.error.message : `HTTP ${response.status}`;
    const code = refusal.success ? refusal.data.error.code : null;
    if (code === 'pairing-code-invalid') return { ok: false, kind: 'code-invalid', message };
    if (code === 'rate-limited') return { ok: false, kind: 'rate-limited', message };
    return { ok: false, kind: 'refused', message };
  }
  const paired = PairResponseSchema.safeParse(body);
  if (!paired.success) return { ok: false, kind: 'refused', message: 'The host sent an answer this app cannot read' };
  return {
    ok: true,
    pairing: {
      hostUrl: base,
      hostName: paired.data.hostName,
      deviceId: paired.data.deviceId,
      deviceName: request.name,
      credential: paired.data.credential,
    },
  };
}

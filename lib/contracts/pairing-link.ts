// The pairing link `askaway start` and `askaway pair` print (and show as a QR code) and the app's /pair page reads.
// No imports, so the PWA can take it without the schemas.

/** Where the app redeems a pairing code for its device credential (`POST`, R16.2). */
export const PAIR_API_PATH = '/api/pair';

/**
 * `<baseUrl>/pair#code=…`: a one-time pairing code, not a credential (R16.2). It travels in the URL
 * fragment, which browsers never send, so it stays out of server and proxy logs (R16.6).
 */
export function pairingLink(baseUrl: string, code: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/pair#code=${encodeURIComponent(code)}`;
}

/** What a pairing link's fragment holds: a code (and an optional `host=`), or an old shared-token link. */
export type PairingHash = { kind: 'code'; code: string; hostUrl: string } | { kind: 'legacy-token' };

/** Reads `#code=…` (and `host=`); `#token=…` is a link from before device credentials, which no longer works. */
export function parsePairingHash(hash: string): PairingHash | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const code = params.get('code');
  if (code) return { kind: 'code', code, hostUrl: params.get('host') ?? '' };
  if (params.get('token')) return { kind: 'legacy-token' };
  return null;
}

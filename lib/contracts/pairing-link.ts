// The pairing link `askaway start` prints (and shows as a QR code) and the app's /pair page reads.
// No imports, so the PWA can take it without the schemas.

/**
 * `<baseUrl>/pair#token=…`. The token travels in the URL fragment, which browsers never send, so it
 * stays out of server and proxy logs (R12.1).
 */
export function pairingLink(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/pair#token=${encodeURIComponent(token)}`;
}

/** Reads `#token=…` (and an optional `host=`) from a pairing link's fragment. */
export function parsePairingHash(hash: string): { token: string; hostUrl: string } | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const token = params.get('token');
  if (!token) return null;
  return { token, hostUrl: params.get('host') ?? '' };
}

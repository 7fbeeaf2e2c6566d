import { errorMessage, isRecord } from '../contracts';

/** Node's codes for a certificate it does not trust, or one that does not fit the address. */
const CERTIFICATE_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'HOSTNAME_MISMATCH',
]);

/**
 * Why a connection to a host failed, in words a person can act on (R17.7). Runtimes verify TLS
 * as Node does; a certificate Node does not trust says how to make it trusted rather than how
 * to switch verification off. Takes a Node error (`code`, `message`) or socket.io's transport
 * error, whose `description` carries the WebSocket's error event.
 */
export function describeConnectionFailure(error: unknown): string {
  const cause = innermost(error);
  const code = isRecord(cause) && typeof cause.code === 'string' ? cause.code : undefined;
  const message = errorMessage(cause);
  if (code !== undefined && CERTIFICATE_CODES.has(code)) {
    return (
      `its TLS certificate is not trusted here (${message}): if the hub uses its own certificate, ` +
      'point NODE_EXTRA_CA_CERTS at the CA that signed it (e.g. `export NODE_EXTRA_CA_CERTS=~/hub-ca.pem`)'
    );
  }
  return message;
}

/** The error under socket.io's and ws's wrappers: `description` (an ErrorEvent), then its `error`. */
function innermost(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 3 && isRecord(current); depth += 1) {
    const next = current.description ?? current.error ?? current.cause;
    if (!isRecord(next) && !(next instanceof Error)) break;
    current = next;
  }
  return current;
}

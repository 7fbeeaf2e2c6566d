import { errorMessage } from '../../../contracts';
import { redactUrl } from './pg-url';

/** SQLSTATE or Node's system error code of a failure `pg` reports, or '' when it has none. */
export function errorCode(error: unknown): string {
  return typeof error === 'object' && error && 'code' in error && typeof error.code === 'string' ? error.code : '';
}

/**
 * The database's reason in one line, without the password even if a driver ever quoted it. Node reports a host
 * with several addresses (localhost: ::1 and 127.0.0.1) as an AggregateError without a message of its own.
 */
export function reasonOf(error: unknown, password: string | undefined): string {
  const inner = error instanceof AggregateError && error.message === '' ? error.errors[0] : error;
  const text = errorMessage(inner).replace(/\s+/g, ' ').trim() || errorCode(error) || 'unknown error';
  return password ? text.split(password).join('***') : text;
}

/** What a person should do about a failure to connect, by its code; the URL is always shown redacted. */
export function describeConnectError(url: string, error: unknown): string {
  const where = redactUrl(url);
  const password = passwordOf(url);
  const reason = reasonOf(error, password);
  switch (errorCode(error)) {
    case 'ECONNREFUSED':
      return `Cannot reach the event log's database at ${where}: the connection was refused. Is PostgreSQL running and listening on that host and port?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Cannot reach the event log's database at ${where}: its host name does not resolve (${reason}).`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `Cannot reach the event log's database at ${where}: ${reason}. Check the host, port and firewall.`;
    case '28P01':
      return `The database at ${where} refused the user name or password (${reason}). Check the URL's credentials.`;
    case '28000':
      return `The database at ${where} refused this connection (${reason}). Check the user name and the server's pg_hba.conf.`;
    case '3D000':
      return `The event log's database does not exist (${reason}): create it first (createdb), then start again with ${where}.`;
    default:
      if (CERTIFICATE_PROBLEMS.has(errorCode(error))) {
        return `The event log's database at ${where} presented a TLS certificate this machine cannot verify (${reason}). Name its CA with sslrootcert=<file>, or say sslmode=no-verify to encrypt without verifying.`;
      }
      if (/client password must be a string/i.test(reason)) {
        return `The database at ${where} asks for a password and the URL gives none: add it (postgres://user:password@host/database, percent-encoded) or set PGPASSWORD.`;
      }
      if (/does not support SSL/i.test(reason)) {
        return `The event log's database at ${where} does not accept TLS (${reason}): enable ssl on the server, or say sslmode=disable.`;
      }
      return `Cannot open the event log in ${where}: ${reason}`;
  }
}

/** Node's codes for a server certificate that fails verification (unknown CA, wrong name, expired). */
const CERTIFICATE_PROBLEMS = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The failure of a read or write after a good start: the database went away, or refused the statement. */
export class PgLogError extends Error {
  constructor(
    message: string,
    /** The database cannot be reached or takes no writes now (storage-health.ts): the host refuses and waits. */
    readonly storageUnavailable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PgLogError';
  }
}

const CONNECTION_LOST = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);

/** `doing` completes "Cannot … the event log": "append to", "read". */
export function describeWorkError(url: string, doing: string, error: unknown): PgLogError {
  const where = redactUrl(url);
  const reason = reasonOf(error, passwordOf(url));
  const code = errorCode(error);
  // SQLSTATE class 08 (connection exception) and 57P01–57P03 (the server shutting down or not accepting yet).
  const lost =
    CONNECTION_LOST.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code) || /connection/i.test(reason);
  const message = lost
    ? `Cannot ${doing} the event log: its database at ${where} is unreachable (${reason}).`
    : `Cannot ${doing} the event log in ${where}: ${reason}`;
  // Class 53 (out of disk, memory or connections) and a read-only server (a standby) pass as a lost one does.
  const refused = code.startsWith('53') || code === '25006';
  return new PgLogError(message, lost || refused, { cause: error });
}

export function passwordOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    const password = decodeURIComponent(parsed.password) || parsed.searchParams.get('password') || undefined;
    return password;
  } catch {
    return undefined;
  }
}

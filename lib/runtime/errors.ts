import { ConnectErrorDataSchema, PROTOCOL_VERSION } from '../contracts';
import { FatalInteractionError } from '../protocol';
import { START_HINT } from './host-address';

/** Why talking to the host failed, in terms a CLI can map to exit codes and hints. */
export type HostConnectionErrorCode =
  'unreachable' | 'no-token' | 'unauthorized' | 'protocol-mismatch' | 'rejected' | 'withdrawn' | 'closed';

/**
 * A failure a person can act on: the message says what to do. It is fatal to the
 * re-announce loop (R8.1): re-sending cannot fix a wrong token or a withdrawal.
 */
export class HostConnectionError extends FatalInteractionError {
  readonly code: HostConnectionErrorCode;

  constructor(code: HostConnectionErrorCode, message: string) {
    super(message);
    this.name = 'HostConnectionError';
    this.code = code;
  }
}

export function unreachableError(url: string, detail?: string): HostConnectionError {
  const suffix = detail ? ` (${detail})` : '';
  return new HostConnectionError('unreachable', `Askaway host is not reachable at ${url}${suffix}. ${START_HINT}`);
}

export function noTokenError(dataDir: string): HostConnectionError {
  return new HostConnectionError(
    'no-token',
    `No Askaway token found: set ASKAWAY_TOKEN or start the host once so it writes ${dataDir}/token. ${START_HINT}`,
  );
}

export const isHostConnectionError = (error: unknown): error is HostConnectionError =>
  error instanceof HostConnectionError;

/**
 * A refused socket.io connection: the host's `{code, message}` becomes a fatal
 * error a person can act on; transport trouble (and transient refusals) comes
 * back as text, because socket.io keeps retrying those.
 */
export function classifyConnectError(url: string, error: Error & { data?: unknown }): HostConnectionError | string {
  const data = ConnectErrorDataSchema.safeParse(error.data);
  if (!data.success) return error.message;
  const { code, message } = data.data;
  switch (code) {
    case 'unauthorized':
      return new HostConnectionError(
        'unauthorized',
        `The Askaway host at ${url} refused the token (${message}). Use the token from the host's data dir or set ASKAWAY_TOKEN.`,
      );
    case 'protocol-mismatch':
      return new HostConnectionError(
        'protocol-mismatch',
        `The Askaway host at ${url} speaks another protocol version (${message}); this runtime speaks ${PROTOCOL_VERSION}. Update askaway so both match.`,
      );
    case 'rate-limited':
    case 'internal':
      return message;
    default:
      return new HostConnectionError('rejected', `The Askaway host at ${url} refused this runtime: ${message}`);
  }
}

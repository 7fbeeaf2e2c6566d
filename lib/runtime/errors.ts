import { ConnectErrorDataSchema, PROTOCOL_VERSION } from '../contracts';
import { FatalInteractionError } from '../protocol';
import { START_HINT } from './host-address';
import { describeConnectionFailure } from './transport-errors';

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

/**
 * One line naming the host (R17.6). `hubName`: the hub this machine joined, which runs elsewhere,
 * so the hint is about reaching it rather than starting it.
 */
export function unreachableError(url: string, detail?: string, hubName?: string): HostConnectionError {
  const suffix = detail ? ` (${detail})` : '';
  if (hubName !== undefined) {
    return new HostConnectionError(
      'unreachable',
      `Askaway hub ${hubName} is not reachable at ${url}${suffix}: is it running, and reachable from this machine? \`askaway status\` checks.`,
    );
  }
  return new HostConnectionError('unreachable', `Askaway host is not reachable at ${url}${suffix}. ${START_HINT}`);
}

export function noTokenError(dataDir: string): HostConnectionError {
  return new HostConnectionError(
    'no-token',
    `No Askaway token found: set ASKAWAY_TOKEN, start the host once so it writes ${dataDir}/token, or join a hub (\`askaway join <hub URL> <code>\`). ${START_HINT}`,
  );
}

export const isHostConnectionError = (error: unknown): error is HostConnectionError =>
  error instanceof HostConnectionError;

/**
 * A refused socket.io connection: the host's `{code, message}` becomes a fatal
 * error a person can act on; transport trouble (and transient refusals) comes
 * back as text, because socket.io keeps retrying those.
 */
export function classifyConnectError(
  url: string,
  error: Error & { data?: unknown },
  hubName?: string,
): HostConnectionError | string {
  const data = ConnectErrorDataSchema.safeParse(error.data);
  if (!data.success) return describeConnectionFailure(error);
  const { code, message } = data.data;
  switch (code) {
    case 'unauthorized':
      return new HostConnectionError(
        'unauthorized',
        hubName !== undefined
          ? `The Askaway hub ${hubName} at ${url} refused this machine (${message})`
          : `The Askaway host at ${url} refused the token (${message}). Use the token from the host's data dir or set ASKAWAY_TOKEN.`,
      );
    case 'machine-revoked':
      // The host's own message names the hub and how to join again.
      return new HostConnectionError('unauthorized', `The Askaway hub at ${url} refused this machine: ${message}`);
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

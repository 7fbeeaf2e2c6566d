// Apart from ./push-client (which parses with zod), so the settings page can explain a failure without loading it.

/** Why enabling did not finish, for the settings page to explain. */
export type EnableFailure =
  'denied' | 'dismissed' | 'no-worker' | 'subscribe-failed' | 'host-refused' | 'not-connected';

export class PushClientError extends Error {
  constructor(
    readonly code: EnableFailure,
    message?: string,
  ) {
    super(message ?? code);
    this.name = 'PushClientError';
  }
}

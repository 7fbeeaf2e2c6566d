/** A problem that stops `askaway start`, with a message meant for the person at the terminal. */
export class HostStartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HostStartError';
  }
}

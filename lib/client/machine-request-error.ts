/** A refused or unreadable reply to a machine request; apart from ./machine-requests, which loads zod. */
export class MachineRequestError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'MachineRequestError';
  }
}

import './zod-csp';
import { SimpleAckSchema } from '../contracts/wire';
import { MachineRequestError } from './machine-request-error';
import { describeIssues } from './protocol-error';
import { pushRequest } from './push/channel';

// Settings → Machines (R17.2, R17.5) over the remote's socket: the acked-request channel devices use.

/**
 * Revokes a joined machine: the hub drops its agents at once and withdraws its waiting questions;
 * a fresh machine list follows on the socket.
 */
export async function revokeMachine(machineId: string): Promise<void> {
  const ack = SimpleAckSchema.safeParse(await pushRequest('machines:revoke', { machineId }));
  if (!ack.success)
    throw new MachineRequestError(`Unexpected reply to 'machines:revoke': ${describeIssues(ack.error.issues)}`);
  if (!ack.data.ok) throw new MachineRequestError(ack.data.error.message, ack.data.error.code);
}

import { JoinCodeResponseSchema, JoinResponseSchema, type JoinResponse, type MachineRef } from '../../contracts';
import { type Host } from '../create-host';
import { postJson } from './devices';

/** A joined machine as tests use it: who it is and the credential its runtimes would hold. */
export interface TestMachine {
  machine: MachineRef;
  credential: string;
}

/** Joins a machine in-process, as `POST /api/join` does after redeeming a code. */
export async function joinMachine(host: Pick<Host, 'machines'>, name = 'test-machine'): Promise<TestMachine> {
  const outcome = await host.machines.join(name);
  if (!outcome.ok) throw new Error(outcome.message);
  return { machine: outcome.joined.machine, credential: outcome.joined.credential };
}

/** `POST /api/admin/join-codes`, as `askaway invite` does. */
export async function mintJoinCode(url: string, adminToken: string) {
  const { status, json } = await postJson(`${url}/api/admin/join-codes`, {}, { Authorization: `Bearer ${adminToken}` });
  if (status !== 201) throw new Error(`minting a join code failed: ${status} ${JSON.stringify(json)}`);
  return JoinCodeResponseSchema.parse(json);
}

/** `POST /api/join`, as `askaway join` does: exchanges a code for a machine credential. */
export async function redeemJoinCode(url: string, code: string, name: string): Promise<JoinResponse> {
  const { status, json } = await postJson(`${url}/api/join`, { code, name });
  if (status !== 200) throw new Error(`joining failed: ${status} ${JSON.stringify(json)}`);
  return JoinResponseSchema.parse(json);
}

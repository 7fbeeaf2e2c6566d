import { type AuditPage } from '../contracts/audit';
import { type JoinCodeResponse } from '../contracts/machines';
import { type GroupInput, type RoleChangeCommand, type TeamView } from '../contracts/team-api';
import { type Pairing } from './pairing';
import type * as TeamApi from './team-api';

// The team screens call these; ./team-api reads the hub's answers with the contracts' zod schemas, so it loads
// when a team hub's screen first asks, never with a route's first screen (R13.4, R21.87).

let loading: Promise<typeof TeamApi> | null = null;

function load(): Promise<typeof TeamApi> {
  loading ??= import('./team-api').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

export async function readTeam(pairing: Pairing): Promise<TeamView> {
  return (await load()).readTeam(pairing);
}

export async function changeRole(pairing: Pairing, personId: string, role: RoleChangeCommand['role']): Promise<void> {
  return (await load()).changeRole(pairing, personId, role);
}

export async function removePerson(pairing: Pairing, personId: string): Promise<void> {
  return (await load()).removePerson(pairing, personId);
}

export async function saveGroup(pairing: Pairing, input: GroupInput, groupId?: string): Promise<void> {
  return (await load()).saveGroup(pairing, input, groupId);
}

export async function removeGroup(pairing: Pairing, groupId: string): Promise<void> {
  return (await load()).removeGroup(pairing, groupId);
}

export async function handOver(pairing: Pairing, requestId: string, toPersonId: string): Promise<void> {
  return (await load()).handOver(pairing, { requestId, toPersonId });
}

export async function mintJoinCode(pairing: Pairing, groupId?: string): Promise<JoinCodeResponse> {
  return (await load()).mintJoinCode(pairing, groupId);
}

export async function readAudit(pairing: Pairing, before?: number): Promise<AuditPage> {
  return (await load()).readAudit(pairing, before);
}

import './zod-csp';
import type * as z from 'zod/mini';
import { AuditPageSchema, TEAM_AUDIT_API_PATH, type AuditPage } from '../contracts/audit';
import { DEVICE_JOIN_CODES_API_PATH, JoinCodeResponseSchema, type JoinCodeResponse } from '../contracts/machines';
import { ApiErrorSchema } from '../contracts/pairing-api';
import {
  TEAM_API_PATH,
  TEAM_GROUPS_API_PATH,
  TEAM_HAND_OVER_API_PATH,
  TEAM_PEOPLE_API_PATH,
  GroupInputSchema,
  TeamViewSchema,
  type GroupInput,
  type HandOverCommand,
  type RoleChangeCommand,
  type TeamView,
} from '../contracts/team-api';
import { normalizeHostUrl, type Pairing } from './pairing';
import { describeIssues } from './protocol-error';

// The app's side of a team hub's HTTP API (R21.75–R21.88): people, groups, roles, hand-over, join codes and the
// audit record, each asked of the device's own hub with its own credential, never over the socket (R21.13).
// Answers are read with the contracts' schemas; a refusal carries the hub's own words.

/**
 * The hub refused (with its message and HTTP status), answered something this app cannot read, or (status 0) the
 * request was not sent because the hub would refuse it.
 */
export class TeamRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'TeamRequestError';
  }
}

type Fetch = typeof fetch;

async function request(pairing: Pairing, path: string, fetchImpl: Fetch, body?: unknown): Promise<unknown> {
  const response = await fetchImpl(`${normalizeHostUrl(pairing.hostUrl)}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      Authorization: `Bearer ${pairing.credential}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
    credentials: 'omit',
  });
  const text = await response.text();
  let json: unknown = undefined;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const refusal = ApiErrorSchema.safeParse(json);
    throw new TeamRequestError(
      refusal.success ? refusal.data.error.message : `The hub answered ${path} with HTTP ${response.status}`,
      response.status,
    );
  }
  return json;
}

function read<Schema extends z.ZodMiniType>(schema: Schema, json: unknown, path: string): z.infer<Schema> {
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new TeamRequestError(`Unexpected reply to ${path}: ${describeIssues(parsed.error.issues)}`, 200);
  return parsed.data;
}

/** `GET /api/team`: the team as this device's person may see it. */
export async function readTeam(pairing: Pairing, fetchImpl: Fetch = fetch): Promise<TeamView> {
  return read(TeamViewSchema, await request(pairing, TEAM_API_PATH, fetchImpl), TEAM_API_PATH);
}

export async function changeRole(
  pairing: Pairing,
  personId: string,
  role: RoleChangeCommand['role'],
  fetchImpl: Fetch = fetch,
): Promise<void> {
  const command: RoleChangeCommand = { role };
  await request(pairing, `${TEAM_PEOPLE_API_PATH}/${encodeURIComponent(personId)}/role`, fetchImpl, command);
}

export async function removePerson(pairing: Pairing, personId: string, fetchImpl: Fetch = fetch): Promise<void> {
  await request(pairing, `${TEAM_PEOPLE_API_PATH}/${encodeURIComponent(personId)}/remove`, fetchImpl, {});
}

/** Creates a group (no `groupId`) or changes one; input the hub would refuse is refused here, and nothing is sent. */
export async function saveGroup(
  pairing: Pairing,
  input: GroupInput,
  groupId?: string,
  fetchImpl: Fetch = fetch,
): Promise<void> {
  const checked = GroupInputSchema.safeParse(input);
  if (!checked.success) throw new TeamRequestError(`The group ${describeIssues(checked.error.issues)}`, 0);
  const path = groupId === undefined ? TEAM_GROUPS_API_PATH : `${TEAM_GROUPS_API_PATH}/${encodeURIComponent(groupId)}`;
  await request(pairing, path, fetchImpl, checked.data);
}

export async function removeGroup(pairing: Pairing, groupId: string, fetchImpl: Fetch = fetch): Promise<void> {
  await request(pairing, `${TEAM_GROUPS_API_PATH}/${encodeURIComponent(groupId)}/remove`, fetchImpl, {});
}

export async function handOver(pairing: Pairing, command: HandOverCommand, fetchImpl: Fetch = fetch): Promise<void> {
  await request(pairing, TEAM_HAND_OVER_API_PATH, fetchImpl, command);
}

/** A join code for this device's person's own machine, or (`groupId`) for a group's shared one. */
export async function mintJoinCode(
  pairing: Pairing,
  groupId?: string,
  fetchImpl: Fetch = fetch,
): Promise<JoinCodeResponse> {
  const json = await request(pairing, DEVICE_JOIN_CODES_API_PATH, fetchImpl, groupId === undefined ? {} : { groupId });
  return read(JoinCodeResponseSchema, json, DEVICE_JOIN_CODES_API_PATH);
}

/** A page of the audit record, newest first; `before` pages on from a previous page's `nextBefore`. */
export async function readAudit(pairing: Pairing, before?: number, fetchImpl: Fetch = fetch): Promise<AuditPage> {
  const path = before === undefined ? TEAM_AUDIT_API_PATH : `${TEAM_AUDIT_API_PATH}?before=${before}`;
  return read(AuditPageSchema, await request(pairing, path, fetchImpl), TEAM_AUDIT_API_PATH);
}

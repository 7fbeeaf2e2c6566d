import { type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  JoinCodeResponseSchema,
  type AuditEntry,
  TeamViewSchema,
  type GroupRecord,
  type HostEvent,
  type InteractionView,
} from '../../contracts';
import { applyEvents, fromSnapshot, type HostView } from '../../client/reduce';
import { type Host } from '../create-host';
import { makeSubscription } from '../push/test-helpers';
import { setUpPgTestLogs } from '../store/test-support/pg-test-logs';
import { connectRemote } from '../test-support/clients';
import { pairDevice, postJson } from '../test-support/devices';
import { redeemJoinCode } from '../test-support/machines';
import { cliIn } from '../test-support/spawn-cli';
import { startTestHost, TEST_TOKEN } from '../test-support/test-host';
import { type TestPerson } from './test-support/oidc-test-provider';
import {
  ask,
  caughtUp,
  closeTeam,
  HUB_AGENT,
  pushesTo,
  respondByHttp,
  respondBySocket,
  seenIds,
  signInAndPair,
  team,
  type Asker,
  type Person,
} from './test-support/team-fixture';

// Groups, roles and hand-over on a team hub (R21.18, R21.19, R21.22, R21.23, R21.40–R21.59): Ola the owner, Ana and
// Ben in the group "CI runners" with a shared machine, Dan a member outside it until Ola makes him an admin. On
// SQLite, and on two PostgreSQL replicas with each phone and machine on a different one from the others.

const DAN: TestPerson = {
  login: 'dan',
  password: 'dan-password',
  sub: 'sub-dan-33b1',
  email: 'dan@example.com',
  name: 'Dan Ruiz',
  groups: [],
};

const logs = setUpPgTestLogs();
afterEach(closeTeam);

type Remote = Awaited<ReturnType<typeof connectRemote>>;

const bearer = (person: Person) => ({ Authorization: `Bearer ${person.credential}` });

async function getTeam(hub: Host, headers: Record<string, string>) {
  const reply = await fetch(`${hub.url}/api/team`, { headers });
  return { status: reply.status, json: (await reply.json()) as unknown };
}

/** The person id of a paired device, as the replica it paired through has it. */
function personIdOf(person: Person): string {
  const id = person.hub.registry.projection.devices.get(person.deviceId)?.personId;
  if (id === undefined) throw new Error('this device belongs to nobody');
  return id;
}

/**
 * The app's own fold of what a phone receives (lib/client/reduce.ts): a snapshot replaces everything, events fold
 * in by seq. `pending()` is the inbox the app shows.
 */
function appOf(remote: Remote) {
  const first = remote.snapshots[0];
  if (!first) throw new Error('the phone started from a snapshot');
  let view: HostView = fromSnapshot(first, Date.now());
  remote.socket.on('snapshot', (snapshot) => (view = fromSnapshot(snapshot, Date.now(), view)));
  remote.socket.on('events', (batch) => (view = applyEvents(view, batch.events, batch.pendingTotal)));
  return {
    pending: (): InteractionView[] => [...view.interactions.values()].filter((entry) => entry.status === 'pending'),
    get: (requestId: string) => view.interactions.get(requestId),
  };
}

async function createGroup(hub: Host, by: Person, name: string, members: string[]) {
  return postJson(`${hub.url}/api/team/groups`, { name, members }, bearer(by));
}

/** A shared machine of the group: a code minted from `by`'s phone on `mintOn`, redeemed on `joinOn`. */
async function joinGroupMachine(by: Person, mintOn: Host, joinOn: Host, groupId: string): Promise<Asker> {
  const minted = await postJson(`${mintOn.url}/api/device/join-codes`, { groupId }, bearer(by));
  expect(minted.status, JSON.stringify(minted.json)).toBe(201);
  const { code } = JoinCodeResponseSchema.parse(minted.json);
  const joined = await redeemJoinCode(joinOn.url, code, 'ci-runner-1');
  return { credential: joined.credential, machineId: joined.machine.id };
}

async function teamWithGroup(backend: 'sqlite' | 'pg') {
  const base = await team(logs, backend, [DAN]);
  const first = base.hubs[0] as Host;
  const last = base.hubs.at(-1) as Host;
  const dan = await signInAndPair(first, last, DAN);
  const ids = {
    ola: personIdOf(base.ola),
    ana: personIdOf(base.ana),
    ben: personIdOf(base.ben),
    dan: personIdOf(dan),
  };
  // Ola's phone is on the first replica: the group is created and the machine's code minted through it, and the
  // machine joins through the other.
  const created = await createGroup(first, base.ola, 'CI runners', [ids.ana, ids.ben]);
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  const group = (created.json as { group: GroupRecord }).group;
  const ciMachine = await joinGroupMachine(base.ola, first, last, group.id);
  await caughtUp(base.hubs);
  return { ...base, first, last, dan, ids, group, ciMachine };
}

describe.each([
  ['SQLite', 'sqlite'],
  ['PostgreSQL with two replicas', 'pg'],
] as const)('[R21.18][R21.23] groups and hand-over, on %s', (_label, backend) => {
  it('[R21.40][R21.41][R21.42][R21.48] a shared machine’s question reaches the group’s members and not a third; each question names whose it is', async () => {
    const { first, last, ola, ana, ben, dan, ids, group, ciMachine, anaMachine } = await teamWithGroup(backend);
    expect(last.registry.projection.machines.get(ciMachine.machineId)?.groupId).toBe(group.id);
    const anaPhone = await connectRemote(ana.hub.url, ana.credential);
    const benPhone = await connectRemote(ben.hub.url, ben.credential);
    const danPhone = await connectRemote(dan.hub.url, dan.credential);

    const ci = await ask(first, ciMachine, 'CI flaky');
    const anas = await ask(last, anaMachine, 'Ana schema');
    const hubs = await ask(first, HUB_AGENT, 'Hub own');
    await vi.waitFor(() => expect(seenIds(anaPhone)).toEqual(new Set([ci, anas])));
    await vi.waitFor(() => expect(seenIds(benPhone)).toEqual(new Set([ci])));
    // Dan, in no group, sees none of them: not live, not in a fresh snapshot; the owner sees all.
    const olaPhone = await connectRemote(ola.hub.url, ola.credential);
    expect(olaPhone.snapshots[0]?.pending.map((view) => view.requestId).sort()).toEqual([ci, anas, hubs].sort());
    const danAgain = await connectRemote(first.url, dan.credential);
    expect(danAgain.snapshots[0]?.pending).toEqual([]);
    expect(seenIds(danPhone)).toEqual(new Set());

    // Whose each is: the group, the person, the owner (the hub's own agents), from the machine's record.
    const askedFor = (requestId: string) => first.registry.projection.get(requestId)?.askedFor;
    expect(askedFor(ci)).toEqual({ kind: 'group', id: group.id, name: 'CI runners' });
    expect(askedFor(anas)).toEqual({ kind: 'person', id: ids.ana, name: 'Ana Lima' });
    expect(askedFor(hubs)).toEqual({ kind: 'person', id: ids.ola, name: 'Ola Berg' });
    // The phone gets the names, never the group's record nor whose the machine is (R21.13).
    const requested = anaPhone.events.find(
      (event): event is Extract<HostEvent, { type: 'interaction.requested' }> =>
        event.type === 'interaction.requested' && event.interaction.requestId === ci,
    );
    expect(requested?.interaction.askedFor).toEqual({ kind: 'group', id: group.id, name: 'CI runners' });
    expect(JSON.stringify([...anaPhone.events, ...benPhone.events])).not.toMatch(/group\.saved|"groupId"|personId/);

    // Ben answers the group's question from his phone: the answer names him (R21.22), Ana's phone sees it answered.
    expect(await respondBySocket(benPhone.socket as unknown as Socket, ci, 'SQLite')).toMatchObject({ ok: true });
    for (const hub of [first, last])
      await vi.waitFor(() =>
        expect(hub.registry.projection.get(ci)?.resolution?.device).toEqual({
          id: ben.deviceId,
          label: 'Ben Okafor’s phone',
          person: { id: ids.ben, name: 'Ben Okafor' },
        }),
      );
    await vi.waitFor(() =>
      expect(
        anaPhone.events.some((event) => event.type === 'interaction.resolved' && event.resolution.requestId === ci),
      ).toBe(true),
    );
  });

  it('[R21.23][R21.43][R21.49][R21.50][R21.51] an admin hands a question over: the new person’s phone gets it live, the old one’s sees it leave, only the new one may answer', async () => {
    const { first, last, ola, ana, ben, dan, ids, anaMachine } = await teamWithGroup(backend);
    const anaPhone = await connectRemote(ana.hub.url, ana.credential);
    const benPhone = await connectRemote(ben.hub.url, ben.credential);
    const danPhone = await connectRemote(dan.hub.url, dan.credential);
    const anaApp = appOf(anaPhone);
    const benApp = appOf(benPhone);
    const danApp = appOf(danPhone);
    const anas = await ask(last, anaMachine, 'Ana schema');
    await vi.waitFor(() => expect(anaApp.pending().map((view) => view.requestId)).toEqual([anas]));

    // Dan, a member, may not hand it over; Ola makes him an admin through the other replica, and his phone gets
    // every question at once.
    const handOver = (by: Person, on: Host, toPersonId: string) =>
      postJson(`${on.url}/api/team/hand-over`, { requestId: anas, toPersonId }, bearer(by));
    expect((await handOver(dan, last, ids.ben)).status).toBe(403);
    const promoted = await postJson(`${first.url}/api/team/people/${ids.dan}/role`, { role: 'admin' }, bearer(ola));
    expect(promoted.status, JSON.stringify(promoted.json)).toBe(200);
    await vi.waitFor(() => expect(danApp.pending().map((view) => view.requestId)).toEqual([anas]));

    // Dan hands Ana's question to Ben.
    const handed = await handOver(dan, dan.hub, ids.ben);
    expect(handed.status, JSON.stringify(handed.json)).toBe(200);
    await vi.waitFor(() => expect(benApp.pending().map((view) => view.requestId)).toEqual([anas]));
    expect(benApp.get(anas)?.handedOver).toMatchObject({
      to: { id: ids.ben, name: 'Ben Okafor' },
      by: { id: ids.dan, name: 'Dan Ruiz' },
    });
    await vi.waitFor(() => expect(anaApp.pending()).toEqual([]));
    expect(anaApp.get(anas)).toBeUndefined();
    const logged = (await first.registry.readSince(0, 1000)).find((event) => event.type === 'interaction.handed-over');
    expect(logged).toMatchObject({ requestId: anas, byDeviceId: dan.deviceId, to: { id: ids.ben } });

    // Ana can no longer answer it, by the socket or the notification button; Ben can.
    const refusal = { ok: false, error: { code: 'unknown-interaction', message: `No interaction ${anas}` } };
    expect(await respondBySocket(anaPhone.socket as unknown as Socket, anas, 'Ana')).toEqual(refusal);
    expect((await respondByHttp(ana.hub, ana, anas, 'Ana-http')).ack).toEqual(refusal);
    for (const hub of [first, last]) expect(hub.registry.projection.get(anas)?.status).toBe('pending');
    expect((await respondByHttp(ben.hub, ben, anas, 'Ben')).ack).toMatchObject({ ok: true, status: 'accepted' });
    // Answered, it cannot be handed over again.
    const late = await handOver(ola, first, ids.ana);
    expect(late.status).toBe(409);
  });

  it('[R21.19][R21.44][R21.46][R21.59] role changes: the owner and admins only, never the owner’s, each refusal changing nothing', async () => {
    const { first, last, ola, ana, dan, ids } = await teamWithGroup(backend);
    const role = (by: Person, on: Host, personId: string, to: string) =>
      postJson(`${on.url}/api/team/people/${personId}/role`, { role: to }, bearer(by));
    const roleOf = (hub: Host, personId: string) => hub.registry.projection.people.get(personId)?.role;
    const changes = async () =>
      (await first.registry.readSince(0, 1000)).filter((event) => event.type === 'person.role-changed').length;

    // A member changes nothing, not even their own role.
    expect((await role(ana, last, ids.ben, 'admin')).status).toBe(403);
    expect((await role(ana, last, ids.ana, 'admin')).status).toBe(403);
    // Nobody changes the owner's role; an unknown person, a bad role and a bad body are refused.
    expect((await role(ola, first, ids.ola, 'member')).status).toBe(409);
    expect((await role(ola, first, '0123456789abcdef', 'admin')).status).toBe(404);
    expect((await role(ola, first, ids.ana, 'owner')).status).toBe(400);
    expect((await postJson(`${first.url}/api/team/people/${ids.ana}/role`, 'admin', bearer(ola))).status).toBe(400);
    expect((await postJson(`${first.url}/api/team/people/${ids.ana}/role`, { role: 'admin' }, {})).status).toBe(401);
    expect(await changes()).toBe(0);

    // The owner makes Dan an admin; Dan, an admin, makes Ana one and then a member again.
    expect((await role(ola, first, ids.dan, 'admin')).status).toBe(200);
    await vi.waitFor(() => expect(roleOf(last, ids.dan)).toBe('admin'));
    expect((await role(dan, dan.hub, ids.ana, 'admin')).status).toBe(200);
    expect((await role(dan, dan.hub, ids.ana, 'member')).status).toBe(200);
    expect((await role(dan, dan.hub, ids.ola, 'member')).status).toBe(409);
    for (const hub of [first, last]) {
      await vi.waitFor(() => expect(roleOf(hub, ids.ana)).toBe('member'));
      expect(roleOf(hub, ids.ola)).toBe('owner');
    }
    const logged = (await first.registry.readSince(0, 1000)).filter((event) => event.type === 'person.role-changed');
    expect(logged).toEqual([
      expect.objectContaining({ personId: ids.dan, role: 'admin', byPersonId: ids.ola }),
      expect.objectContaining({ personId: ids.ana, role: 'admin', byPersonId: ids.dan }),
      expect.objectContaining({ personId: ids.ana, role: 'member', byPersonId: ids.dan }),
    ]);

    // Removing: an admin removes members only, never the owner nor another admin; the owner may remove an admin.
    const remove = (by: Person, personId: string) =>
      postJson(`${by.hub.url}/api/team/people/${personId}/remove`, {}, bearer(by));
    expect((await remove(ana, ids.ben)).status).toBe(403);
    expect((await remove(dan, ids.ola)).status).toBe(409);
    expect((await role(ola, first, ids.ben, 'admin')).status).toBe(200);
    expect((await remove(dan, ids.ben)).status).toBe(403);
    expect((await role(ola, first, ids.ben, 'member')).status).toBe(200);
    const removed = await remove(dan, ids.ben);
    expect(removed.status, JSON.stringify(removed.json)).toBe(200);
    expect(removed.json).toMatchObject({ person: { id: ids.ben }, devices: 1, machines: 1 });
    // A removed person's role does not change any more.
    expect((await role(ola, first, ids.ben, 'admin')).status).toBe(404);
  });

  it('[R21.70] hand-overs, role changes, groups, removals and join codes are in the audit record, a member’s refused attempts too', async () => {
    const { first, last, ola, ana, ben, dan, ids, group, anaMachine, benMachine } = await teamWithGroup(backend);
    const anas = await ask(last, anaMachine, 'Ana audit');
    // A member's attempts, each refused and recorded against the member's device.
    expect((await postJson(`${last.url}/api/team/people/${ids.ana}/role`, { role: 'admin' }, bearer(ana))).status).toBe(
      403,
    );
    expect(
      (await postJson(`${last.url}/api/team/hand-over`, { requestId: anas, toPersonId: ids.ana }, bearer(dan))).status,
    ).toBe(403);
    // Done by the owner and an admin, through either replica.
    expect(
      (await postJson(`${first.url}/api/team/people/${ids.dan}/role`, { role: 'admin' }, bearer(ola))).status,
    ).toBe(200);
    await vi.waitFor(() => expect(dan.hub.registry.projection.people.get(ids.dan)?.role).toBe('admin'));
    const handed = await postJson(
      `${dan.hub.url}/api/team/hand-over`,
      { requestId: anas, toPersonId: ids.ben },
      bearer(dan),
    );
    expect(handed.status, JSON.stringify(handed.json)).toBe(200);
    const removedGroup = await postJson(`${first.url}/api/team/groups/${group.id}/remove`, {}, bearer(ola));
    expect(removedGroup.status).toBe(200);
    const removed = await postJson(`${ola.hub.url}/api/team/people/${ids.ben}/remove`, {}, bearer(ola));
    expect(removed.status, JSON.stringify(removed.json)).toBe(200);

    const entries = async () =>
      (await first.registry.readSince(0, 2000)).flatMap((event) =>
        event.type === 'audit.recorded' ? [event.entry] : [],
      );
    // The fixture's own join codes, minted by Ana's and Ben's phones for their laptops, are R21.60's.
    const fixtures = (entry: AuditEntry) => entry.action === 'join-code-minted' && entry.target?.kind === 'person';
    const actions = ['role-changed', 'hand-over', 'group-saved', 'group-removed', 'person-removed', 'join-code-minted'];
    const team = (await entries()).filter((entry) => actions.includes(entry.action) && !fixtures(entry));
    const device = (person: Person, personId: string, name: string) =>
      expect.objectContaining({
        personId,
        personName: name,
        deviceId: person.deviceId,
        via: 'app',
        address: '127.0.0.1',
      });
    expect(team).toEqual([
      // teamWithGroup: Ola creates the group and mints its machine's join code.
      expect.objectContaining({ action: 'group-saved', outcome: 'done', actor: device(ola, ids.ola, 'Ola Berg') }),
      expect.objectContaining({
        action: 'join-code-minted',
        outcome: 'done',
        target: { kind: 'group', id: group.id, name: 'CI runners' },
      }),
      expect.objectContaining({
        action: 'role-changed',
        outcome: 'refused',
        actor: device(ana, ids.ana, 'Ana Lima'),
        target: { kind: 'person', id: ids.ana, name: 'Ana Lima' },
      }),
      expect.objectContaining({
        action: 'hand-over',
        outcome: 'refused',
        actor: device(dan, ids.dan, 'Dan Ruiz'),
        target: expect.objectContaining({ kind: 'question', id: anas }),
      }),
      expect.objectContaining({
        action: 'role-changed',
        outcome: 'done',
        actor: device(ola, ids.ola, 'Ola Berg'),
        target: { kind: 'person', id: ids.dan, name: 'Dan Ruiz' },
        detail: 'role admin',
      }),
      expect.objectContaining({
        action: 'hand-over',
        outcome: 'done',
        actor: device(dan, ids.dan, 'Dan Ruiz'),
        target: expect.objectContaining({ kind: 'question', id: anas }),
        detail: 'to Ben Okafor',
      }),
      expect.objectContaining({
        action: 'group-removed',
        outcome: 'done',
        target: { kind: 'group', id: group.id, name: 'CI runners' },
      }),
      expect.objectContaining({
        action: 'person-removed',
        outcome: 'done',
        actor: device(ola, ids.ola, 'Ola Berg'),
        target: { kind: 'person', id: ids.ben, name: 'Ben Okafor' },
      }),
    ]);
    // Ben's device and machine went with him, each recorded.
    const revoked = (await entries()).filter(
      (entry) =>
        (entry.action === 'device-revoked' || entry.action === 'machine-revoked') && entry.detail === 'person removed',
    );
    expect(revoked.map((entry) => entry.target?.id).sort()).toEqual([ben.deviceId, benMachine.machineId].sort());
  });

  it('[R21.47][R21.52] GET /api/team: everyone for the owner and admins, a member themselves and their groups', async () => {
    const { first, last, ola, ana, dan, ids, group } = await teamWithGroup(backend);
    const owners = await getTeam(first, bearer(ola));
    expect(owners.status).toBe(200);
    const view = TeamViewSchema.parse(owners.json);
    expect(view).toMatchObject({ canManage: true, me: { id: ids.ola, role: 'owner' } });
    expect(view.people.map((person) => person.id).sort()).toEqual(Object.values(ids).sort());
    expect(view.people.find((person) => person.id === ids.ana)?.groups).toEqual([group.id]);
    expect(view.groups).toEqual([group]);

    const anas = TeamViewSchema.parse((await getTeam(last, bearer(ana))).json);
    expect(anas).toEqual({
      me: expect.objectContaining({ id: ids.ana, role: 'member' }),
      canManage: false,
      people: [expect.objectContaining({ id: ids.ana, groups: [group.id] })],
      groups: [group],
    });
    const dans = TeamViewSchema.parse((await getTeam(last, bearer(dan))).json);
    expect(dans).toMatchObject({ canManage: false, people: [{ id: ids.dan, groups: [] }], groups: [] });
    // A device paired with a link is the operator's: everything.
    const linked = await pairDevice(first, 'Operator phone');
    const operator = TeamViewSchema.parse(
      (await getTeam(first, { Authorization: `Bearer ${linked.credential}` })).json,
    );
    expect(operator).toMatchObject({ me: null, canManage: true });
    expect((await getTeam(first, {})).status).toBe(401);
    expect((await getTeam(first, { Authorization: `Bearer ${TEST_TOKEN}` })).status).toBe(401);
  });

  it('[R21.53] a member’s device lists only their own devices and their own and groups’ machines; an admin’s all', async () => {
    const { ola, ana, dan, ciMachine, anaMachine, benMachine } = await teamWithGroup(backend);
    const anaPhone = await connectRemote(ana.hub.url, ana.credential);
    const socket = anaPhone.socket as unknown as Socket;
    const devices = (await socket.emitWithAck('devices:list')) as { devices: { id: string }[] };
    expect(devices.devices.map((device) => device.id)).toEqual([ana.deviceId]);
    const machines = (await socket.emitWithAck('machines:list')) as { machines: { id: string }[] };
    expect(machines.machines.map((machine) => machine.id).sort()).toEqual(
      [anaMachine.machineId, ciMachine.machineId].sort(),
    );
    expect(anaPhone.snapshots[0]?.devices.map((device) => device.id)).toEqual([ana.deviceId]);
    expect(anaPhone.snapshots[0]?.machines.map((machine) => machine.id)).not.toContain(benMachine.machineId);
    // Dan, in no group: his own device, no machine.
    const danPhone = await connectRemote(dan.hub.url, dan.credential);
    const dans = (await (danPhone.socket as unknown as Socket).emitWithAck('machines:list')) as {
      machines: unknown[];
    };
    expect(dans.machines).toEqual([]);
    const olaPhone = await connectRemote(ola.hub.url, ola.credential);
    const all = (await (olaPhone.socket as unknown as Socket).emitWithAck('devices:list')) as { devices: unknown[] };
    expect(all.devices).toHaveLength(4);
  });

  it('[R21.71] a member’s device may not change the hub-wide preferences; the owner’s and an admin’s may', async () => {
    const { first, last, ola, ana } = await teamWithGroup(backend);
    const update = async (person: Person, away: boolean) => {
      const phone = await connectRemote(person.hub.url, person.credential);
      return (phone.socket as unknown as Socket).emitWithAck('preferences:update', { away });
    };
    const preferenceChanges = async () =>
      (await first.registry.readSince(0, 5000)).filter((event) => event.type === 'preferences.updated').length;
    expect(await update(ana, true)).toEqual({
      ok: false,
      error: {
        code: 'forbidden',
        message:
          'On a team hub only the owner and admins change the hub’s preferences (away, notification delay, auto-answers)',
      },
    });
    expect(await preferenceChanges()).toBe(0);
    expect(await update(ola, true)).toMatchObject({ ok: true, preferences: { away: true } });
    expect(await preferenceChanges()).toBe(1);
    await vi.waitFor(() => expect(last.registry.projection.preferences.away).toBe(true));
  });

  it('[R21.54] a question handed over notifies the new person’s phone as a new question does', async () => {
    const { first, sink, ola, ben, ids, anaMachine } = await teamWithGroup(backend);
    const remote = await connectRemote(ben.hub.url, ben.credential);
    const keys = makeSubscription(`${sink.url}/push/${ben.deviceId}`);
    const socket = remote.socket as unknown as Socket;
    expect(await socket.emitWithAck('push:subscribe', { subscription: keys.subscription })).toMatchObject({ ok: true });
    socket.disconnect();
    const anas = await ask(first, anaMachine, 'Ana schema');
    const handed = await postJson(
      `${ola.hub.url}/api/team/hand-over`,
      { requestId: anas, toPersonId: ids.ben },
      bearer(ola),
    );
    expect(handed.status).toBe(200);
    await vi.waitFor(() => expect(JSON.stringify(pushesTo(sink, ben, keys))).toContain('Ana schema'));
  });
});

describe('[R21.18] groups through the API and the CLI', () => {
  it('[R21.40][R21.55][R21.56] members must be people of the hub; names are one group’s each; members may not manage groups', async () => {
    const { first, ola, ana, ids, group } = await teamWithGroup('sqlite');
    const before = first.registry.projection.seq;
    const unknown = await createGroup(first, ola, 'Builders', [ids.ana, 'ffffffffffffffff']);
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.json)).toContain('No person ffffffffffffffff');
    expect((await createGroup(first, ola, 'ci RUNNERS', [])).status).toBe(409);
    expect((await createGroup(first, ana, 'Ana’s own', [])).status).toBe(403);
    expect((await createGroup(first, ola, '', [])).status).toBe(400);
    expect((await postJson(`${first.url}/api/team/groups/${group.id}/remove`, {}, bearer(ana))).status).toBe(403);
    expect((await postJson(`${first.url}/api/device/join-codes`, { groupId: group.id }, bearer(ana))).status).toBe(403);
    expect(
      (await postJson(`${first.url}/api/device/join-codes`, { groupId: 'ffffffffffffffff' }, bearer(ola))).status,
    ).toBe(404);
    expect((await postJson(`${first.url}/api/device/join-codes`, { personId: ids.ben }, bearer(ana))).status).toBe(403);
    expect(
      (await postJson(`${first.url}/api/device/join-codes`, { personId: 'ffffffffffffffff' }, bearer(ola))).status,
    ).toBe(404);
    expect(
      (await postJson(`${first.url}/api/device/join-codes`, { personId: ids.ben, groupId: group.id }, bearer(ola)))
        .status,
    ).toBe(400);
    // Nothing changed but the audit record of the refusals (R21.70).
    const appended = await first.registry.readSince(before, 100);
    expect(appended.map((event) => (event.type === 'audit.recorded' ? event.entry.outcome : event.type))).toEqual(
      appended.map(() => 'refused'),
    );

    // The owner's phone invites a machine for Ben: it joins as his.
    const forBen = await postJson(`${first.url}/api/device/join-codes`, { personId: ids.ben }, bearer(ola));
    expect(forBen.status).toBe(201);
    const bens = await redeemJoinCode(first.url, JoinCodeResponseSchema.parse(forBen.json).code, 'ben-desktop');
    expect(first.registry.projection.machines.get(bens.machine.id)?.personId).toBe(ids.ben);

    // A provider group makes everyone whose claim holds it a member: Ana's says "platform".
    const platform = await postJson(
      `${first.url}/api/team/groups`,
      { name: 'Platform', members: [], providerGroup: 'platform' },
      bearer(ola),
    );
    expect(platform.status).toBe(201);
    const view = TeamViewSchema.parse((await getTeam(first, bearer(ana))).json);
    expect(view.groups.map((entry) => entry.name).sort()).toEqual(['CI runners', 'Platform']);
    // Changed: Ben leaves; removed: its machine's questions are the owner's and admins' only.
    const changed = await postJson(
      `${first.url}/api/team/groups/${group.id}`,
      { name: 'CI runners', members: [ids.ana] },
      bearer(ola),
    );
    expect(changed.status).toBe(200);
    expect(first.registry.projection.groups.get(group.id)?.members).toEqual([ids.ana]);
    const removed = await postJson(`${first.url}/api/team/groups/${group.id}/remove`, {}, bearer(ola));
    expect(removed.status).toBe(200);
    expect(first.registry.projection.groups.has(group.id)).toBe(false);
  });

  it('[R21.45][R21.57][R21.58] askaway groups and askaway invite --for-group; askaway people role', async () => {
    const { first, ana, ids } = await teamWithGroup('sqlite');
    const dir = first.dataDir;
    const created = await cliIn(dir, 'groups', 'create', 'Build boxes', '--members', 'ana@example.com,BEN@example.com');
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toMatch(/^Created the group Build boxes \([0-9a-f]{16}\) with 2 member\(s\)\.\n$/);
    const listed = await cliIn(dir, 'groups');
    expect(listed.stdout).toMatch(/^NAME\s+MEMBERS\s+PROVIDER GROUP\s+ID\n/);
    expect(listed.stdout).toMatch(/\nBuild boxes\s+ana@example\.com, ben@example\.com\s+—\s+[0-9a-f]{16}\n/);
    expect(await cliIn(dir, 'groups', 'create', 'Nobody’s', '--members', 'nobody@example.com')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/No person "nobody@example\.com"/),
    });
    expect(await cliIn(dir, 'groups', 'set', 'build boxes', '--members', 'ana@example.com')).toMatchObject({
      code: 0,
    });
    const groupId = [...first.registry.projection.groups.values()].find((entry) => entry.name === 'Build boxes')?.id;
    expect(first.registry.projection.groups.get(groupId ?? '')?.members).toEqual([ids.ana]);

    // A shared machine of the group: its question reaches Ana's phone.
    const invited = await cliIn(dir, 'invite', '--for-group', 'Build boxes', '--json');
    expect(invited).toMatchObject({ code: 0, stderr: '' });
    const { code } = JoinCodeResponseSchema.parse(JSON.parse(invited.stdout));
    const joined = await redeemJoinCode(first.url, code, 'build-box');
    expect(first.registry.projection.machines.get(joined.machine.id)?.groupId).toBe(groupId);
    const asked = await ask(first, { credential: joined.credential, machineId: joined.machine.id }, 'Build');
    expect(seenIds(await connectRemote(first.url, ana.credential)).has(asked)).toBe(true);
    expect(await cliIn(dir, 'invite', '--for-group', 'Nope')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/No group "Nope"/),
    });
    expect(await cliIn(dir, 'groups', 'remove', 'Build boxes')).toMatchObject({ code: 0 });
    expect(first.registry.projection.groups.has(groupId ?? '')).toBe(false);

    expect(await cliIn(dir, 'people', 'role', 'ana@example.com', 'admin')).toMatchObject({
      code: 0,
      stdout: `Ana Lima (${ids.ana}) is an admin now.\n`,
    });
    expect(first.registry.projection.people.get(ids.ana)?.role).toBe('admin');
    expect(await cliIn(dir, 'people', 'role', 'ola@example.com', 'member')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/The owner’s role does not change/),
    });
    expect(await cliIn(dir, 'people', 'role', 'ana@example.com', 'owner')).toMatchObject({ code: 2 });

    const personal = await startTestHost({ token: TEST_TOKEN });
    expect(await cliIn(personal.dataDir, 'groups')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/This hub has no people: start it with --oidc-issuer/),
    });
    const phone = await pairDevice(personal, 'Phone');
    const none = await getTeam(personal, { Authorization: `Bearer ${phone.credential}` });
    expect(none).toMatchObject({ status: 404, json: { error: { code: 'not-found' } } });
  });
});

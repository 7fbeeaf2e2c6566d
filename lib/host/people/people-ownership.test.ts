import { type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JoinCodeResponseSchema, type PushPayload } from '../../contracts';
import { type Host } from '../create-host';
import { makeSubscription, NTFY_TEST_ORIGIN } from '../push/test-helpers';
import { setUpPgTestLogs } from '../store/test-support/pg-test-logs';
import { connectRemote } from '../test-support/clients';
import { pairDevice, postJson } from '../test-support/devices';
import { redeemJoinCode } from '../test-support/machines';
import { cliIn } from '../test-support/spawn-cli';
import { startTestHost, TEST_TOKEN } from '../test-support/test-host';
import { ANA } from './test-support/oidc-test-provider';
import { SignInBrowser } from './test-support/sign-in-browser';
import {
  ask,
  closeTeam,
  HUB_AGENT,
  pushesTo,
  respondByHttp,
  respondBySocket,
  seenIds,
  team,
} from './test-support/team-fixture';

// Each person's questions are theirs (R21.15–R21.17): Ana and Ben, members, each with a phone and a joined machine;
// Ola, the owner named at start, sees both. On SQLite, and on PostgreSQL with two replicas where each person's
// phone, machine and sign-in go through different replicas.

const logs = setUpPgTestLogs();
afterEach(closeTeam);

describe.each([
  ['SQLite', 'sqlite'],
  ['PostgreSQL with two replicas', 'pg'],
] as const)('[R21.17] each person’s questions are theirs, on %s', (_label, backend) => {
  it('[R21.15][R21.16][R21.17] each member sees only their own questions, live, in a snapshot and on resume; the owner sees all', async () => {
    const { hubs, ola, ana, ben, anaMachine, benMachine } = await team(logs, backend);
    const first = hubs[0] as Host;
    const last = hubs.at(-1) as Host;
    const anaPhone = await connectRemote(ana.hub.url, ana.credential);
    const benPhone = await connectRemote(ben.hub.url, ben.credential);
    const olaPhone = await connectRemote(ola.hub.url, ola.credential);
    const startSeq = anaPhone.snapshots[0]?.seq ?? 0;
    const logId = anaPhone.snapshots[0]?.logId ?? '';

    // Ben's and the hub's own first, so Ana's arriving proves the earlier ones were passed over, not late.
    const bens = await ask(first, benMachine, 'Ben deploy');
    const hubs0 = await ask(last, HUB_AGENT, 'Hub own');
    const anas = await ask(last, anaMachine, 'Ana schema');
    await vi.waitFor(() => expect(seenIds(olaPhone)).toEqual(new Set([bens, hubs0, anas])));
    await vi.waitFor(() => expect(seenIds(anaPhone)).toContain(anas));
    await vi.waitFor(() => expect(seenIds(benPhone)).toContain(bens));
    // The owner's each after Ana's: then Ben's phone has had every batch Ana's had.
    expect(seenIds(anaPhone)).toEqual(new Set([anas]));
    expect(seenIds(benPhone)).toEqual(new Set([bens]));
    expect(anaPhone.batches.at(-1)?.pendingTotal).toBe(1);
    expect(olaPhone.batches.at(-1)?.pendingTotal).toBe(3);
    // The owned question carries its machine, never a person (R21.13).
    expect(JSON.stringify(anaPhone.events)).not.toContain('personId');

    // A fresh snapshot, and a resume from before the questions, on the other replica.
    const anaAgain = await connectRemote(last.url, ana.credential);
    expect(anaAgain.snapshots[0]?.pending.map((view) => view.requestId)).toEqual([anas]);
    expect(anaAgain.snapshots[0]?.pendingTotal).toBe(1);
    const benResumed = await connectRemote(first.url, ben.credential, { resume: { logId, lastSeq: startSeq } });
    expect(benResumed.snapshots).toHaveLength(0);
    expect(seenIds(benResumed)).toEqual(new Set([bens]));
    const olaAgain = await connectRemote(first.url, ola.credential);
    expect(olaAgain.snapshots[0]?.pending.map((view) => view.requestId).sort()).toEqual([anas, bens, hubs0].sort());

    // Answered: in Ana's History, not in Ben's.
    expect(await respondBySocket(anaPhone.socket as unknown as Socket, anas, 'SQLite')).toMatchObject({ ok: true });
    const benLater = await connectRemote(first.url, ben.credential);
    expect(benLater.snapshots[0]?.history.map((view) => view.requestId)).toEqual([]);
    const anaLater = await connectRemote(first.url, ana.credential);
    expect(anaLater.snapshots[0]?.history.map((view) => view.requestId)).toEqual([anas]);
    const more: unknown = await (benLater.socket as unknown as Socket).emitWithAck('pending:more', { after: 0 });
    expect(more).toMatchObject({ ok: true, pendingTotal: 1, pending: [expect.objectContaining({ requestId: bens })] });
  });

  it('[R21.17][R21.35] a member cannot answer another’s question by the socket or the notification button’s POST, and nothing changes; the owner can', async () => {
    const { hubs, ola, ana, ben, benMachine } = await team(logs, backend);
    const first = hubs[0] as Host;
    const bens = await ask(first, benMachine, 'Ben deploy');
    const anaPhone = await connectRemote(ana.hub.url, ana.credential);
    await vi.waitFor(() => expect(ana.hub.registry.projection.get(bens)?.status).toBe('pending'));

    const refusal = { ok: false, error: { code: 'unknown-interaction', message: `No interaction ${bens}` } };
    expect(await respondBySocket(anaPhone.socket as unknown as Socket, bens, 'Ana-socket')).toEqual(refusal);
    expect((await respondByHttp(ana.hub, ana, bens, 'Ana-http')).ack).toEqual(refusal);
    for (const hub of hubs) expect(hub.registry.projection.get(bens)?.status).toBe('pending');
    // Ben's own answer is taken; so would the owner's have been.
    expect((await respondByHttp(ben.hub, ben, bens, 'Ben')).ack).toMatchObject({ ok: true, status: 'accepted' });
    const hubsOwn = await ask(first, HUB_AGENT, 'Hub own');
    const olaPhone = await connectRemote(ola.hub.url, ola.credential);
    expect(await respondBySocket(olaPhone.socket as unknown as Socket, hubsOwn, 'Ola')).toMatchObject({ ok: true });
    expect(first.registry.projection.get(hubsOwn)?.resolution?.device?.id).toBe(ola.deviceId);
  });

  it('[R21.36] a member cannot revoke another person’s device or machine, only their own', async () => {
    const { hubs, ana, ben, anaMachine, benMachine } = await team(logs, backend);
    const anaPhone = await connectRemote(ana.hub.url, ana.credential);
    const socket = anaPhone.socket as unknown as Socket;
    expect(await socket.emitWithAck('devices:revoke', { deviceId: ben.deviceId })).toMatchObject({
      ok: false,
      error: { code: 'unknown-device' },
    });
    expect(await socket.emitWithAck('machines:revoke', { machineId: benMachine.machineId })).toMatchObject({
      ok: false,
      error: { code: 'unknown-machine' },
    });
    for (const hub of hubs) {
      expect(hub.registry.projection.devices.get(ben.deviceId)?.revokedAt).toBeUndefined();
      expect(hub.registry.projection.machines.get(benMachine.machineId)?.revokedAt).toBeUndefined();
    }
    expect(await socket.emitWithAck('machines:revoke', { machineId: anaMachine.machineId })).toEqual({ ok: true });
  });

  it('[R21.17] a member’s phone gets no push for another’s question; the owner’s gets both', async () => {
    const { hubs, sink, ola, ana, ben, anaMachine, benMachine } = await team(logs, backend);
    const phones = await Promise.all(
      [ana, ben, ola].map(async (person) => {
        const remote = await connectRemote(person.hub.url, person.credential);
        const keys = makeSubscription(`${sink.url}/push/${person.deviceId}`);
        const socket = remote.socket as unknown as Socket;
        expect(await socket.emitWithAck('push:subscribe', { subscription: keys.subscription })).toMatchObject({
          ok: true,
        });
        // Away from the app, so the push is not held back for a visible page.
        socket.disconnect();
        return keys;
      }),
    );
    const [anaKeys, benKeys, olaKeys] = phones as [
      ReturnType<typeof makeSubscription>,
      ReturnType<typeof makeSubscription>,
      ReturnType<typeof makeSubscription>,
    ];
    const text = (payloads: PushPayload[]) => JSON.stringify(payloads);
    await ask(hubs.at(-1) as Host, anaMachine, 'Ana schema');
    await vi.waitFor(() => expect(text(pushesTo(sink, ana, anaKeys))).toContain('Ana schema'));
    // Two at once: Ben's phone gets a summary of what waits, which is his two, not Ana's too.
    await Promise.all([ask(hubs[0] as Host, benMachine, 'Ben deploy'), ask(hubs[0] as Host, benMachine, 'Ben tests')]);
    await vi.waitFor(() => expect(text(pushesTo(sink, ben, benKeys))).toContain('Ben tests'));
    await vi.waitFor(() => {
      const owners = text(pushesTo(sink, ola, olaKeys));
      for (const header of ['Ana schema', 'Ben deploy', 'Ben tests']) expect(owners).toContain(header);
    });
    expect(text(pushesTo(sink, ana, anaKeys))).not.toContain('Ben ');
    expect(text(pushesTo(sink, ben, benKeys))).not.toContain('Ana schema');
  });

  it('[R21.20] removing a person cuts their phone off at once, revokes their machine and refuses their next sign-in', async () => {
    const { hubs, ana, ben, ola, anaMachine, benMachine } = await team(logs, backend);
    const first = hubs[0] as Host;
    const last = hubs.at(-1) as Host;
    const anas = await ask(first, anaMachine, 'Ana schema');
    const anaPhone = await connectRemote(ana.hub.url, ana.credential);
    await vi.waitFor(() => expect(seenIds(anaPhone)).toContain(anas));
    const dropped = new Promise<void>((resolve) => anaPhone.socket.on('disconnect', () => resolve()));
    const admin = { Authorization: `Bearer ${first.adminToken}` };
    const anaId = first.registry.projection.devices.get(ana.deviceId)?.personId ?? '';
    const olaId = first.registry.projection.devices.get(ola.deviceId)?.personId ?? '';

    // The owner stays; someone unknown is not found; Ana goes, through the other replica.
    expect((await postJson(`${last.url}/api/admin/people/${olaId}/revoke`, {}, admin)).status).toBe(409);
    expect((await postJson(`${last.url}/api/admin/people/0123456789abcdef/revoke`, {}, admin)).status).toBe(404);
    const removed = await postJson(`${last.url}/api/admin/people/${anaId}/revoke`, {}, admin);
    expect(removed.status).toBe(200);
    expect(removed.json).toMatchObject({ person: { id: anaId, role: 'member' }, devices: 1, machines: 1 });
    await dropped;
    for (const hub of hubs) {
      await vi.waitFor(() => expect(hub.registry.projection.devices.get(ana.deviceId)?.revokedAt).toBeDefined());
      await vi.waitFor(() => expect(hub.registry.projection.get(anas)?.status).toBe('withdrawn'));
      expect(hub.registry.projection.machines.get(anaMachine.machineId)?.revokedAt).toBeDefined();
      // Ben keeps everything.
      expect(hub.registry.projection.devices.get(ben.deviceId)?.revokedAt).toBeUndefined();
      expect(hub.registry.projection.machines.get(benMachine.machineId)?.revokedAt).toBeUndefined();
    }
    expect((await respondByHttp(first, ana, anas, 'late')).ack).toMatchObject({ ok: false });
    // Signing in again at the provider gets her nothing.
    const browser = new SignInBrowser();
    const { callbackUrl } = await browser.signInAtProvider(first.url, ANA);
    const refused = await browser.get(callbackUrl);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('You were removed from this hub.');
    expect(refused.location).toBeUndefined();
    expect(first.registry.projection.people.get(anaId)?.removedAt).toBeDefined();
  });

  it('[R21.17] a member’s ntfy topic is told only of their own questions', async () => {
    const { hubs, sink, ana, anaMachine, benMachine } = await team(logs, backend);
    const remote = await connectRemote(ana.hub.url, ana.credential);
    const socket = remote.socket as unknown as Socket;
    const topicUrl = `${NTFY_TEST_ORIGIN}/ana-topic`;
    expect(await socket.emitWithAck('push:ntfy', { topicUrl })).toMatchObject({ ok: true });
    socket.disconnect();
    const titles = () =>
      sink.requests.filter((request) => request.path === '/ana-topic').map((request) => request.headers.title);
    // Ben's first: when Ana's arrives, Ben's would have come before it.
    await ask(hubs[0] as Host, benMachine, 'Ben deploy');
    await ask(hubs.at(-1) as Host, anaMachine, 'Ana schema');
    await vi.waitFor(() => expect(titles()).toContain('Ana schema'));
    expect(titles()).toEqual(['Ana schema']);
  });
});

describe('[R21.15] a join code minted from a person’s device', () => {
  it('[R21.15][R21.37] needs a device credential of a person, five at once; the machine it joins is theirs; a hub without people has no such route', async () => {
    const { hubs, ana, anaMachine } = await team(logs, 'sqlite');
    const hub = hubs[0] as Host;
    const mint = (headers: Record<string, string>) => postJson(`${hub.url}/api/device/join-codes`, {}, headers);
    expect((await mint({})).status).toBe(401);
    expect((await mint({ Authorization: `Bearer ${TEST_TOKEN}` })).status).toBe(401);
    // Paired with a link from `askaway pair`: nobody's, so it cannot say whose the machine would be.
    const linked = await pairDevice(hub, 'Linked phone');
    const refused = await mint({ Authorization: `Bearer ${linked.credential}` });
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.json)).toContain('askaway invite');
    const anaId = hub.registry.projection.devices.get(ana.deviceId)?.personId;
    expect(anaId).toBeDefined();
    expect(hub.registry.projection.machines.get(anaMachine.machineId)?.personId).toBe(anaId);
    // The grant names the device that asked for the code.
    const grants = (await hub.registry.readSince(0, 1000)).filter(
      (event) => event.type === 'person.join-code-minted' && event.personId === anaId,
    );
    expect(grants).toEqual([expect.objectContaining({ byDeviceId: ana.deviceId })]);
    // Her phone minted one for her machine; four more at once, then it waits.
    const anas = { Authorization: `Bearer ${ana.credential}` };
    for (let count = 0; count < 4; count += 1) expect((await mint(anas)).status).toBe(201);
    expect((await mint(anas)).status).toBe(429);

    const personal = await startTestHost({ token: TEST_TOKEN });
    const phone = await pairDevice(personal, 'Phone');
    const none = await postJson(
      `${personal.url}/api/device/join-codes`,
      {},
      {
        Authorization: `Bearer ${phone.credential}`,
      },
    );
    expect(none.status).not.toBe(201);
  });
});

describe('[R21.39] askaway invite --for', () => {
  it('[R21.38][R21.39] the owner invites a machine for a person: it joins as hers, her phone sees its questions and Ben’s does not', async () => {
    const { hubs, ana, ben } = await team(logs, 'sqlite');
    const hub = hubs[0] as Host;
    const invited = await cliIn(hub.dataDir, 'invite', '--for', 'ANA@example.com', '--json');
    expect(invited).toMatchObject({ code: 0, stderr: '' });
    const { code } = JoinCodeResponseSchema.parse(JSON.parse(invited.stdout));
    const joined = await redeemJoinCode(hub.url, code, 'ana-desktop');
    const anaId = hub.registry.projection.devices.get(ana.deviceId)?.personId;
    expect(hub.registry.projection.machines.get(joined.machine.id)?.personId).toBe(anaId);
    // No device asked for it: the grant says whose, and nothing else.
    const grants = (await hub.registry.readSince(0, 1000)).filter(
      (event) => event.type === 'person.join-code-minted' && event.byDeviceId === undefined,
    );
    expect(grants).toEqual([expect.objectContaining({ personId: anaId })]);

    const asked = await ask(hub, { credential: joined.credential, machineId: joined.machine.id }, 'Desktop');
    const anasPhone = await connectRemote(hub.url, ana.credential);
    const bensPhone = await connectRemote(hub.url, ben.credential);
    expect(seenIds(anasPhone).has(asked)).toBe(true);
    expect(seenIds(bensPhone).has(asked)).toBe(false);

    expect(await cliIn(hub.dataDir, 'invite', '--for', 'nobody@example.com')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/No person "nobody@example\.com"/),
    });
    const personal = await startTestHost({ token: TEST_TOKEN });
    expect(await cliIn(personal.dataDir, 'invite', '--for', 'ana@example.com')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/This hub has no people: start it with --oidc-issuer/),
    });
  });
});

describe('[R21.20] askaway people', () => {
  it('[R21.20] lists the people and removes one by email, revoking her phone and machine', async () => {
    const { hubs, ana, ben, anaMachine } = await team(logs, 'sqlite');
    const hub = hubs[0] as Host;
    const listed = await cliIn(hub.dataDir, 'people');
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(listed.stdout).toMatch(/^NAME\s+EMAIL\s+ROLE\s+LAST SIGN-IN\s+ID\n/);
    expect(listed.stdout).toMatch(/\nOla Berg\s+ola@example\.com\s+owner\s/);
    expect(listed.stdout).toMatch(/\nAna Lima\s+ana@example\.com\s+member\s/);
    expect(await cliIn(hub.dataDir, 'people', 'revoke', 'OLA@example.com')).toMatchObject({ code: 1 });
    const removed = await cliIn(hub.dataDir, 'people', 'revoke', 'ANA@example.com');
    expect(removed).toMatchObject({ code: 0, stderr: '' });
    expect(removed.stdout).toMatch(/^Removed Ana Lima \([0-9a-f]{16}\): 1 device\(s\) and 1 machine\(s\) revoked/);
    expect(hub.registry.projection.devices.get(ana.deviceId)?.revokedAt).toBeDefined();
    expect(hub.registry.projection.machines.get(anaMachine.machineId)?.revokedAt).toBeDefined();
    expect(hub.registry.projection.devices.get(ben.deviceId)?.revokedAt).toBeUndefined();
    expect((await cliIn(hub.dataDir, 'people', '--json')).stdout).toContain('"removedAt"');
  });
});

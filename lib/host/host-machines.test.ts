import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  PROTOCOL_VERSION,
  REMOTE_NAMESPACE,
  REMOTE_PROTOCOL_VERSION,
  RUNTIME_NAMESPACE,
  type AnnounceAck,
  type InteractionRequest,
  type RespondAck,
  type SimpleAck,
} from '../contracts';
import { expectItem } from '../core/test-support/expect-item';
import { closeAllClients, connectRemote, connectRuntime, tryConnect, type RuntimeClient } from './test-support/clients';
import { pairDevice, postJson, readAdminToken } from './test-support/devices';
import { questionRequest } from './test-support/fixtures';
import { joinMachine, mintJoinCode, redeemJoinCode } from './test-support/machines';
import { closeAllHosts, startTestHost, TEST_TOKEN } from './test-support/test-host';

afterEach(async () => {
  vi.useRealTimers();
  closeAllClients();
  await closeAllHosts();
});

function announce(socket: RuntimeClient, request: InteractionRequest): Promise<AnnounceAck> {
  return new Promise((resolve) => socket.emit('announce', request, resolve));
}

const answer = (label: string) => ({
  action: 'accept' as const,
  content: { answers: { 'Which database?': label, 'Which extras?': 'Metrics' } },
});

describe('[R17.1] joining a hub over HTTP', () => {
  it('[R17.1] a join code becomes a machine credential once; a reused code changes nothing', async () => {
    const host = await startTestHost({ hostName: 'hub-box' });
    const invite = await mintJoinCode(host.url, readAdminToken(host.dataDir));
    expect(invite.command).toBe(`askaway join ${host.url} ${invite.code}`);
    expect(invite.hubUrl).toBe(host.url);
    expect(Date.parse(invite.expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);

    const joined = await redeemJoinCode(host.url, invite.code, 'laptop');
    expect(joined).toEqual({
      machine: { id: expect.stringMatching(/^[0-9a-f]{16}$/), name: 'laptop' },
      credential: expect.stringMatching(new RegExp(`^aw_m_${joined.machine.id}_`)),
      hubName: 'hub-box',
    });
    expect(host.machines.list()).toEqual([
      { id: 'local', name: 'hub-box', kind: 'hub', connectedAgents: 0 },
      { id: joined.machine.id, name: 'laptop', kind: 'joined', joinedAt: expect.any(String), connectedAgents: 0 },
    ]);
    const seq = host.registry.projection.seq;

    const again = await postJson(`${host.url}/api/join`, { code: invite.code, name: 'thief' });
    expect(again).toEqual({
      status: 410,
      json: {
        error: {
          code: 'join-code-invalid',
          message: expect.stringMatching(/already used or has expired: a code works once, for 10 minutes.+invite/),
        },
      },
    });
    expect(host.registry.projection.seq).toBe(seq);
    // A pairing code is not a join code, and the reverse.
    const pairing = await host.mintPairingCode();
    expect(await postJson(`${host.url}/api/join`, { code: pairing.code, name: 'sly' })).toMatchObject({ status: 410 });
    expect(host.machines.count()).toBe(1);
  });

  it('[R17.1] a code past its TTL is refused', async () => {
    const host = await startTestHost({ pairTtlMs: 50 });
    const { code } = await host.mintJoinCode();
    await vi.waitFor(async () => expect(await host.codes.count('join-machine')).toBe(0));
    const late = await postJson(`${host.url}/api/join`, { code, name: 'late' });
    expect(late).toMatchObject({ status: 410, json: { error: { code: 'join-code-invalid' } } });
    expect(host.machines.count()).toBe(0);
  });

  it('[R17.1] a name already joined (or the hub own) is refused without using the code up', async () => {
    const host = await startTestHost({ hostName: 'hub-box' });
    await joinMachine(host, 'laptop');
    const { code } = await host.mintJoinCode();
    const taken = await postJson(`${host.url}/api/join`, { code, name: 'LAPTOP' });
    expect(taken).toMatchObject({
      status: 409,
      json: { error: { code: 'conflict', message: expect.stringMatching(/already joined to hub-box.+revoke/) } },
    });
    const hub = await postJson(`${host.url}/api/join`, { code, name: 'hub-box' });
    expect(hub).toMatchObject({ status: 409, json: { error: { message: expect.stringMatching(/hub's own name/) } } });
    const bad = await postJson(`${host.url}/api/join`, { code, name: 'x\u001b[2J' });
    expect(bad).toMatchObject({ status: 400, json: { error: { message: expect.stringMatching(/control/) } } });
    const browser = await postJson(`${host.url}/api/join`, { code, name: 'web' }, { Origin: host.url });
    expect(browser).toMatchObject({ status: 403 });
    expect(await host.codes.count('join-machine')).toBe(1);
    expect((await redeemJoinCode(host.url, code, 'desktop')).machine.name).toBe('desktop');
  });
  it('[R16.3][R17.1] failed join attempts share the pairing limit; valid codes join any number of machines', async () => {
    const limits = {
      perAddress: { capacity: 2, refillPerSecond: 0.001 },
      global: { capacity: 2, refillPerSecond: 0.001 },
    };
    const fleet = await startTestHost({ pairLimits: limits });
    const joined = [];
    for (let machine = 0; machine < 5; machine += 1)
      joined.push(
        (await postJson(`${fleet.url}/api/join`, { code: (await fleet.mintJoinCode()).code, name: `box-${machine}` }))
          .status,
      );
    expect(joined).toEqual([200, 200, 200, 200, 200]);
    expect(fleet.machines.count()).toBe(5);

    const host = await startTestHost({ pairLimits: { ...limits, failurePauseMs: 1 } });
    const { code } = await host.mintJoinCode();
    const guesses = [];
    for (let guess = 0; guess < 3; guess += 1)
      guesses.push((await postJson(`${host.url}/api/join`, { code: `guess-${guess}`, name: 'sly' })).status);
    expect(guesses).toEqual([410, 410, 429]);
    // Past the limit, from the same address, the real code still joins.
    expect(await postJson(`${host.url}/api/join`, { code, name: 'laptop' })).toMatchObject({ status: 200 });
    expect(host.machines.count()).toBe(1);
  });

  it('[R17.1] a bad code is answered alike whatever the name: no probing for the names of joined machines', async () => {
    const host = await startTestHost();
    await joinMachine(host, 'laptop');
    const taken = await postJson(`${host.url}/api/join`, { code: 'AAAAA-BBBBB-CCCCC-DDDDD', name: 'laptop' });
    const free = await postJson(`${host.url}/api/join`, { code: 'AAAAA-BBBBB-CCCCC-DDDDD', name: 'nobody' });
    expect(taken).toMatchObject({ status: 410, json: { error: { code: 'join-code-invalid' } } });
    expect(taken).toEqual(free);
  });
});

describe('[R17.2] machine credentials', () => {
  it('[R17.2] open the runtime side only: not the remote side, not the admin API', async () => {
    const host = await startTestHost({ hostName: 'hub-box' });
    const laptop = await joinMachine(host, 'laptop');
    const runtime = await connectRuntime(host.url, laptop.credential);
    expect(runtime.socket.connected).toBe(true);
    expect(
      await tryConnect(host.url, REMOTE_NAMESPACE, {
        credential: laptop.credential,
        protocolVersion: REMOTE_PROTOCOL_VERSION,
      }),
    ).toEqual({ code: 'unauthorized', message: expect.stringMatching(/machine credential: it opens the agent side/) });
    const admin = await postJson(
      `${host.url}/api/admin/join-codes`,
      {},
      { Authorization: `Bearer ${laptop.credential}` },
    );
    expect(admin).toMatchObject({
      status: 403,
      json: { error: { message: expect.stringMatching(/machine credential/) } },
    });

    const whoami = await getJson(`${host.url}/api/agent/whoami`, laptop.credential);
    expect(whoami).toEqual({
      status: 200,
      json: { hubName: 'hub-box', hubVersion: expect.any(String), machine: laptop.machine },
    });
    expect((await getJson(`${host.url}/api/agent/whoami`, TEST_TOKEN)).json).toMatchObject({
      machine: { id: 'local', name: 'hub-box' },
    });
    expect((await getJson(`${host.url}/api/agent/whoami`, 'aw_m_0123456789abcdef_' + 'x'.repeat(43))).status).toBe(401);
  });

  it('[R17.2] revoking drops the machine at once, withdraws its questions and refuses it with a line naming the hub', async () => {
    const host = await startTestHost({ hostName: 'hub-box' });
    const laptop = await joinMachine(host, 'laptop');
    const desktop = await joinMachine(host, 'desktop');
    const remote = await connectRemote(host.url, (await pairDevice(host)).credential);
    const laptopRuntime = await connectRuntime(host.url, laptop.credential);
    const desktopRuntime = await connectRuntime(host.url, desktop.credential);
    await announce(laptopRuntime.socket, questionRequest({ requestId: 'same' }));
    await announce(desktopRuntime.socket, questionRequest({ requestId: 'same' }));
    const dropped = new Promise<string>((resolve) => laptopRuntime.socket.once('disconnect', resolve));

    const revoked = await new Promise<SimpleAck>((resolve) =>
      remote.socket.emit('machines:revoke', { machineId: laptop.machine.id }, resolve),
    );
    expect(revoked).toEqual({ ok: true });
    expect(await dropped).toBe('io server disconnect');
    expect(desktopRuntime.socket.connected).toBe(true);
    const views = [...host.registry.projection.interactions.values()];
    expect(views.map((view) => [view.machine.name, view.status, view.withdrawnReason])).toEqual([
      ['laptop', 'withdrawn', 'laptop was removed from hub-box'],
      ['desktop', 'pending', undefined],
    ]);
    expect(
      await tryConnect(host.url, RUNTIME_NAMESPACE, {
        token: laptop.credential,
        protocolVersion: PROTOCOL_VERSION,
        runtimeId: 'r',
      }),
    ).toEqual({
      code: 'machine-revoked',
      message: expect.stringMatching(
        /^This machine \("laptop"\) was removed from hub-box\. Join again: run `askaway invite`/,
      ),
    });
    await vi.waitFor(() =>
      expect(remote.events.map((event) => event.type)).toEqual(
        expect.arrayContaining(['machine.revoked', 'interaction.withdrawn']),
      ),
    );
    await vi.waitFor(() =>
      expect(remote.machineLists.at(-1)?.map((machine) => machine.name)).toEqual(['hub-box', 'desktop']),
    );
    const again = await new Promise<SimpleAck>((resolve) =>
      remote.socket.emit('machines:revoke', { machineId: laptop.machine.id }, resolve),
    );
    expect(again).toMatchObject({ ok: false, error: { code: 'unknown-machine' } });
    const hub = await new Promise<SimpleAck>((resolve) =>
      remote.socket.emit('machines:revoke', { machineId: 'local' }, resolve),
    );
    expect(hub).toMatchObject({ ok: false, error: { code: 'invalid-message' } });
  });
});

describe('[R17.3][R17.4] machine identity and ids unique per machine', () => {
  it('[R17.4] the same session and request id from three machines stay three interactions; each answer reaches its asker', async () => {
    const host = await startTestHost({ hostName: 'hub-box' });
    const laptop = await joinMachine(host, 'laptop');
    const desktop = await joinMachine(host, 'desktop');
    const remote = await connectRemote(host.url, (await pairDevice(host)).credential);
    const runtimes = {
      hub: await connectRuntime(host.url, TEST_TOKEN),
      laptop: await connectRuntime(host.url, laptop.credential),
      desktop: await connectRuntime(host.url, desktop.credential),
    };
    const request = questionRequest({ requestId: 'toolu_same', sessionId: 'session-same' });
    for (const runtime of Object.values(runtimes)) {
      expect(await announce(runtime.socket, request)).toMatchObject({ ok: true, status: 'pending' });
    }
    const snapshot = (
      await new Promise<{ ok: boolean; snapshot?: { pending: { requestId: string; machine: unknown }[] } }>((resolve) =>
        remote.socket.emit('snapshot:get', resolve),
      )
    ).snapshot;
    expect(snapshot?.pending.map((view) => [view.requestId, view.machine])).toEqual([
      ['toolu_same', { id: 'local', name: 'hub-box' }],
      [`${laptop.machine.id}:toolu_same`, laptop.machine],
      [`${desktop.machine.id}:toolu_same`, desktop.machine],
    ]);

    const respond = (requestId: string, label: string) =>
      new Promise<RespondAck>((resolve) =>
        remote.socket.emit('respond', { requestId, clientResponseId: `c-${label}`, response: answer(label) }, resolve),
      );
    expect(await respond(`${laptop.machine.id}:toolu_same`, 'SQLite')).toMatchObject({ ok: true, status: 'accepted' });
    expect(await respond('toolu_same', 'Postgres (Recommended)')).toMatchObject({ ok: true, status: 'accepted' });
    await vi.waitFor(() => expect(runtimes.laptop.resolved).toHaveLength(1));
    await vi.waitFor(() => expect(runtimes.hub.resolved).toHaveLength(1));
    const laptopNotice = expectItem(runtimes.laptop.resolved, 0);
    expect(laptopNotice).toMatchObject({
      requestId: 'toolu_same',
      protocolRequestId: request.protocolRequestId,
      resolution: { requestId: 'toolu_same', response: answer('SQLite') },
    });
    expect(expectItem(runtimes.hub.resolved, 0).resolution.response).toEqual(answer('Postgres (Recommended)'));
    expect(runtimes.desktop.resolved).toEqual([]);
    expect(host.registry.projection.get(`${desktop.machine.id}:toolu_same`)?.status).toBe('pending');

    // The delivery ack of one machine's runtime names its own id and settles only its own interaction.
    const ack = await new Promise<SimpleAck>((resolve) =>
      runtimes.laptop.socket.emit('resolution:ack', { requestId: 'toolu_same' }, resolve),
    );
    expect(ack).toEqual({ ok: true });
    expect(host.registry.projection.get(`${laptop.machine.id}:toolu_same`)?.deliveredAt).toBeDefined();
    expect(host.registry.projection.get('toolu_same')?.deliveredAt).toBeUndefined();
  });

  it('[R17.3] a runtime cannot say which machine it is: a machine field is refused, and the hub agents cannot take a joined key', async () => {
    const host = await startTestHost();
    const laptop = await joinMachine(host, 'laptop');
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const forged = { ...questionRequest(), machine: laptop.machine };
    expect(await announce(runtime.socket, forged as InteractionRequest)).toMatchObject({
      ok: false,
      error: { code: 'invalid-message' },
    });
    const shaped = await announce(runtime.socket, questionRequest({ requestId: `${laptop.machine.id}:x` }));
    expect(shaped).toMatchObject({ ok: false, error: { code: 'invalid-message', message: /joined machine/ } });
    expect(host.registry.projection.interactions.size).toBe(0);
  });
});

describe('[R17.5][R17.6] machines that come and go', () => {
  it('[R17.5] the list counts agents connected now, live on every remote, hub first', async () => {
    const host = await startTestHost({ hostName: 'hub-box' });
    const laptop = await joinMachine(host, 'laptop');
    const remote = await connectRemote(host.url, (await pairDevice(host)).credential);
    expect(remote.snapshots[0]?.machines.map((machine) => [machine.name, machine.connectedAgents])).toEqual([
      ['hub-box', 0],
      ['laptop', 0],
    ]);
    // The snapshot carried the list: no second copy follows it (one message in order, then this reply).
    await new Promise<unknown>((resolve) => remote.socket.emit('machines:list', resolve));
    expect(remote.machineLists).toEqual([]);
    const first = await connectRuntime(host.url, laptop.credential, 'one');
    await connectRuntime(host.url, laptop.credential, 'two');
    await vi.waitFor(() =>
      expect(remote.machineLists.at(-1)?.find((machine) => machine.name === 'laptop')).toMatchObject({
        connectedAgents: 2,
        lastSeenAt: expect.any(String),
      }),
    );
    first.socket.disconnect();
    await vi.waitFor(() => expect(host.machines.get(laptop.machine.id)?.connectedAgents).toBe(1));
    const listed = await new Promise<unknown>((resolve) => remote.socket.emit('machines:list', resolve));
    expect(listed).toMatchObject({ ok: true, machines: [{ name: 'hub-box' }, { name: 'laptop', connectedAgents: 1 }] });
  });

  it('[R17.6] a dropped machine keeps its question; the answer waits and reaches it when it re-announces', async () => {
    const host = await startTestHost();
    const laptop = await joinMachine(host, 'laptop');
    const remote = await connectRemote(host.url, (await pairDevice(host)).credential);
    const request = questionRequest({ requestId: 'toolu_1' });
    const before = await connectRuntime(host.url, laptop.credential);
    await announce(before.socket, request);
    before.socket.disconnect();
    await vi.waitFor(() => expect(host.machines.get(laptop.machine.id)?.connectedAgents).toBe(0));
    const key = `${laptop.machine.id}:toolu_1`;
    expect(host.registry.projection.get(key)?.status).toBe('pending');
    const ack = await new Promise<RespondAck>((resolve) =>
      remote.socket.emit('respond', { requestId: key, clientResponseId: 'c1', response: answer('SQLite') }, resolve),
    );
    expect(ack).toMatchObject({ ok: true, status: 'accepted' });

    const after = await connectRuntime(host.url, laptop.credential);
    expect(await announce(after.socket, request)).toEqual({
      ok: true,
      status: 'resolved',
      resolution: expect.objectContaining({ requestId: 'toolu_1', response: answer('SQLite') }),
    });
  });
});

async function getJson(url: string, token: string): Promise<{ status: number; json: unknown }> {
  const response = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  return { status: response.status, json: await response.json() };
}

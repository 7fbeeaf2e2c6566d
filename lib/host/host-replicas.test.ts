import { afterEach, describe, expect, it, vi } from 'vitest';
import { type HostEvent, type RespondAck } from '../contracts';
import { type Host } from './create-host';
import { setUpPgTestLogs } from './store/test-support/pg-test-logs';
import { closeAllClients, connectRemote, connectRuntime, type RemoteClient } from './test-support/clients';
import { pairDevice, postJson } from './test-support/devices';
import { questionRequest } from './test-support/fixtures';
import { joinMachine, redeemJoinCode } from './test-support/machines';
import { closeAllHosts, startTestHost, TEST_TOKEN } from './test-support/test-host';

/**
 * Two hub processes (replicas) on one PostgreSQL log, each with its own data dir and port, as a team hub runs them
 * behind a load balancer: agents and phones connect to either.
 */
const logs = setUpPgTestLogs();

afterEach(async () => {
  closeAllClients();
  await closeAllHosts();
});

async function twoReplicas(): Promise<[Host, Host]> {
  const url = await logs.freshLogUrl();
  // The agent token is per data dir: a team gives every replica the same one (ASKAWAY_TOKEN).
  const a = await startTestHost({ databaseUrl: url, token: TEST_TOKEN });
  const b = await startTestHost({ databaseUrl: url, token: TEST_TOKEN });
  return [a, b];
}

const accept = (requestId: string, clientResponseId: string, choice: string) => ({
  requestId,
  clientResponseId,
  response: { action: 'accept' as const, content: { answers: { 'Which database?': choice } } },
});

const requested = (events: readonly HostEvent[], requestId: string) =>
  events.some((event) => event.type === 'interaction.requested' && event.interaction.requestId === requestId);

/** Milliseconds from each announce on `agentHost` until the phone on `phoneHost` holds the card, one at a time. */
async function announceToPhone(agentHost: Host, phoneHost: Host, count: number): Promise<number[]> {
  const runtime = await connectRuntime(agentHost.url, TEST_TOKEN, `runtime-${agentHost.port}-${phoneHost.port}`);
  const phone = await connectRemote(phoneHost.url, (await pairDevice(phoneHost)).credential);
  const delays: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const request = questionRequest();
    const shown = new Promise<void>((resolve) => {
      const onEvents = () => {
        if (!requested(phone.events, request.requestId)) return;
        phone.socket.off('events', onEvents);
        resolve();
      };
      phone.socket.on('events', onEvents);
    });
    const started = performance.now();
    runtime.socket.emit('announce', request, () => undefined);
    await shown;
    delays.push(performance.now() - started);
  }
  runtime.socket.disconnect();
  phone.socket.disconnect();
  return delays;
}

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

describe('[R20.40] replicas follow each other', () => {
  it('[R20.40] a question an agent announces on one replica reaches a phone on the other, within 1.5× of one hub plus a few ms', async () => {
    const [a, b] = await twoReplicas();
    const single = await announceToPhone(a, a, 50);
    const across = await announceToPhone(a, b, 50);
    const line = (delays: number[]) =>
      `p50 ${percentile(delays, 0.5).toFixed(1)} ms, p95 ${percentile(delays, 0.95).toFixed(1)} ms`;
    console.info(`[R20.40] announce → phone: one hub ${line(single)}; across replicas ${line(across)}`);
    expect(percentile(across, 0.5)).toBeLessThan(percentile(single, 0.5) * 1.5 + 10);
    expect(percentile(across, 0.95)).toBeLessThan(percentile(single, 0.95) * 1.5 + 25);
  });

  it('[R20.40] an answer given on the other replica reaches the agent once, and the phone there hears it', async () => {
    const [a, b] = await twoReplicas();
    const runtime = await connectRuntime(a.url, TEST_TOKEN);
    const phone = await connectRemote(b.url, (await pairDevice(b)).credential);
    const request = questionRequest();
    await runtime.socket.emitWithAck('announce', request);
    await vi.waitFor(() => expect(requested(phone.events, request.requestId)).toBe(true));

    const ack = await phone.socket.emitWithAck('respond', accept(request.requestId, 'c-1', 'SQLite'));
    expect(ack).toMatchObject({ ok: true, status: 'accepted' });
    await vi.waitFor(() => expect(runtime.resolved).toHaveLength(1));
    expect(runtime.resolved[0]).toMatchObject({
      requestId: request.requestId,
      protocolRequestId: request.protocolRequestId,
      resolution: { response: { action: 'accept', content: { answers: { 'Which database?': 'SQLite' } } } },
    });
    // The agent's acknowledgement on A reaches the phone on B ("received by the agent").
    expect(await runtime.socket.emitWithAck('resolution:ack', { requestId: request.requestId })).toEqual({ ok: true });
    await vi.waitFor(() =>
      expect(phone.events.filter((event) => event.type === 'interaction.delivered')).toHaveLength(1),
    );
    // Whatever else either replica appends later, the agent is not told twice.
    await b.registry.updatePreferences({ away: true });
    await vi.waitFor(() => expect(a.registry.projection.preferences.away).toBe(true));
    expect(runtime.resolved).toHaveLength(1);
  });

  it('[R20.40][R20.6] two phones answering one question at the same instant on two replicas: one resolution, the same receipt for both', async () => {
    const [a, b] = await twoReplicas();
    const runtime = await connectRuntime(a.url, TEST_TOKEN);
    const onA = await connectRemote(a.url, (await pairDevice(a, 'Phone on A')).credential);
    const onB = await connectRemote(b.url, (await pairDevice(b, 'Phone on B')).credential);
    for (let round = 0; round < 5; round += 1) {
      const request = questionRequest();
      await runtime.socket.emitWithAck('announce', request);
      await vi.waitFor(() => expect(requested(onB.events, request.requestId)).toBe(true));
      const [fromA, fromB] = await Promise.all([
        onA.socket.emitWithAck('respond', accept(request.requestId, `a-${round}`, 'Postgres (Recommended)')),
        onB.socket.emitWithAck('respond', accept(request.requestId, `b-${round}`, 'SQLite')),
      ]);
      const statuses = [fromA, fromB].map((ack: RespondAck) => (ack.ok ? ack.status : ack.error.code)).sort();
      expect(statuses).toEqual(['accepted', 'already-resolved']);
      expect(fromA.ok && fromB.ok && fromA.resolution).toEqual(fromB.ok && fromB.resolution);
      await vi.waitFor(() => expect(runtime.resolved).toHaveLength(round + 1));
      const resolutions = (await a.registry.readSince(0, 1_000)).filter(
        (event) => event.type === 'interaction.resolved' && event.resolution.requestId === request.requestId,
      );
      expect(resolutions).toHaveLength(1);
    }
    // Every resolution the agent heard is the one the log holds.
    await vi.waitFor(() => expect(runtime.resolved).toHaveLength(5));
  });
});

/** Resolves when the socket is disconnected by the host. */
const disconnected = (socket: { once(event: 'disconnect', listener: (reason: string) => void): unknown }) =>
  new Promise<string>((resolve) => socket.once('disconnect', resolve));

describe('[R20.41] a revocation on one replica holds on every replica at once', () => {
  it('[R20.41][R16.5] a device removed on one replica loses its connection to the other at once', async () => {
    const [a, b] = await twoReplicas();
    const device = await pairDevice(a, 'Lost phone');
    const phone = await connectRemote(b.url, device.credential);
    const gone = disconnected(phone.socket as RemoteClient);
    expect(await a.devices.revoke(device.deviceId)).toMatchObject({ ok: true });
    expect(await gone).toBe('io server disconnect');
    expect(b.devices.list().map((listed) => listed.id)).not.toContain(device.deviceId);
  });

  it('[R20.41][R17.2] a machine removed on one replica loses its agents’ connections to the other, and phones there see the list change', async () => {
    const [a, b] = await twoReplicas();
    const laptop = await joinMachine(a, 'laptop');
    const phone = await connectRemote(b.url, (await pairDevice(b)).credential);
    const runtime = await connectRuntime(b.url, laptop.credential, 'laptop-runtime');
    await vi.waitFor(() => expect(b.machines.list().map((machine) => machine.name)).toContain('laptop'));
    const gone = disconnected(runtime.socket);
    expect(await a.machines.revoke(laptop.machine.id)).toMatchObject({ ok: true });
    expect(await gone).toBe('io server disconnect');
    await vi.waitFor(() => expect(phone.machineLists.at(-1)?.map((machine) => machine.name)).not.toContain('laptop'));
  });
});

describe('[R20.66] which agents are connected holds across replicas', () => {
  it('[R20.66][R17.5] a phone on one replica sees a machine’s agents connected to another come and go, and a replica that closes takes its counts with it', async () => {
    const [a, b] = await twoReplicas();
    const laptop = await joinMachine(a, 'laptop');
    const phone = await connectRemote(b.url, (await pairDevice(b)).credential);
    const agentsOf = (name: string) => phone.machineLists.at(-1)?.find((machine) => machine.name === name);
    const first = await connectRuntime(a.url, laptop.credential, 'laptop-runtime-1');
    const second = await connectRuntime(a.url, laptop.credential, 'laptop-runtime-2');
    const hubAgent = await connectRuntime(a.url, TEST_TOKEN, 'hub-runtime');
    await vi.waitFor(() => expect(agentsOf('laptop')?.connectedAgents).toBe(2), { timeout: 5_000 });
    expect(b.machines.list()[0]?.connectedAgents).toBe(1);
    // One more on B itself: B's own and A's add up.
    const third = await connectRuntime(b.url, laptop.credential, 'laptop-runtime-3');
    await vi.waitFor(() => expect(agentsOf('laptop')?.connectedAgents).toBe(3));

    first.socket.disconnect();
    await vi.waitFor(() => expect(agentsOf('laptop')?.connectedAgents).toBe(2), { timeout: 5_000 });
    second.socket.disconnect();
    hubAgent.socket.disconnect();
    await a.close();
    await vi.waitFor(() => expect(agentsOf('laptop')?.connectedAgents).toBe(1), { timeout: 5_000 });
    expect(b.machines.list()[0]?.connectedAgents).toBe(0);
    third.socket.disconnect();
    await vi.waitFor(() => expect(agentsOf('laptop')?.connectedAgents).toBe(0));
  });
});

describe('[R20.42] pairing and join codes work whichever replica they reach', () => {
  const pairRequest = (code: string, name: string) => ({ code, name, platform: 'Test · Node' });

  it('[R20.42][R16.3] a pairing link minted on one replica pairs on the other, once, even raced on both', async () => {
    const [a, b] = await twoReplicas();
    const { code } = await a.mintPairingCode();
    const paired = await postJson(`${b.url}/api/pair`, pairRequest(code, 'Phone through B'));
    expect(paired.status).toBe(200);
    expect((await postJson(`${a.url}/api/pair`, pairRequest(code, 'Again on A'))).status).toBe(410);

    const raced = (await a.mintPairingCode()).code;
    const statuses = await Promise.all([
      postJson(`${a.url}/api/pair`, pairRequest(raced, 'Racer A')).then((reply) => reply.status),
      postJson(`${b.url}/api/pair`, pairRequest(raced, 'Racer B')).then((reply) => reply.status),
    ]);
    expect(statuses.sort()).toEqual([200, 410]);
    expect(await a.codes.count('pair-device')).toBe(0);
  });

  it('[R20.42][R17.1] a join code minted on one replica joins a machine through the other', async () => {
    const [a, b] = await twoReplicas();
    const { code } = await b.mintJoinCode();
    const joined = await redeemJoinCode(a.url, code, 'build-box');
    const runtime = await connectRuntime(b.url, joined.credential, 'build-box-runtime');
    expect(runtime.socket.connected).toBe(true);
    await vi.waitFor(() => expect(b.machines.list().map((machine) => machine.name)).toContain('build-box'));
  });
});

describe('[R20.48] each question’s lines are logged once', () => {
  it('[R20.48] the replica the agent is connected to logs the question, its answer given through another, and its withdrawal; the other logs none', async () => {
    const url = await logs.freshLogUrl();
    const lines = { a: [] as string[], b: [] as string[] };
    const a = await startTestHost({
      databaseUrl: url,
      token: TEST_TOKEN,
      onLifecycle: (event) => lines.a.push(`${event.type} ${event.view.requestId}`),
    });
    const b = await startTestHost({
      databaseUrl: url,
      token: TEST_TOKEN,
      onLifecycle: (event) => lines.b.push(`${event.type} ${event.view.requestId}`),
    });
    const runtime = await connectRuntime(a.url, TEST_TOKEN);
    const phone = await connectRemote(b.url, (await pairDevice(b)).credential);
    const answered = questionRequest();
    const withdrawn = questionRequest();
    await runtime.socket.emitWithAck('announce', answered);
    await runtime.socket.emitWithAck('announce', withdrawn);
    await vi.waitFor(() => expect(b.registry.projection.get(withdrawn.requestId)?.status).toBe('pending'));
    await phone.socket.emitWithAck('respond', accept(answered.requestId, 'answer-1', 'SQLite'));
    await vi.waitFor(() => expect(runtime.resolved).toHaveLength(1));
    await runtime.socket.emitWithAck('withdraw', { requestId: withdrawn.requestId });
    await vi.waitFor(() => expect(b.registry.projection.get(withdrawn.requestId)?.status).toBe('withdrawn'));
    await b.registry.settled();

    expect(lines.a).toEqual([
      `requested ${answered.requestId}`,
      `requested ${withdrawn.requestId}`,
      `resolved ${answered.requestId}`,
      `withdrawn ${withdrawn.requestId}`,
    ]);
    expect(lines.b).toEqual([]);
  });
});

describe('[R20.46] the failed-attempt limit holds across replicas', () => {
  const guess = (host: Host, attempt: number) =>
    postJson(`${host.url}/api/pair`, { code: `GUESS-${attempt}`, name: 'Guesser', platform: 'Test · Node' }).then(
      (reply) => reply.status,
    );

  it('[R20.46][R16.3] failures on two replicas draw on one budget; a valid code still pairs on either', async () => {
    const url = await logs.freshLogUrl();
    const pairLimits = {
      perAddress: { capacity: 3, refillPerSecond: 0.001 },
      global: { capacity: 100, refillPerSecond: 1 },
      failurePauseMs: 1,
    };
    const a = await startTestHost({ databaseUrl: url, token: TEST_TOKEN, pairLimits });
    const b = await startTestHost({ databaseUrl: url, token: TEST_TOKEN, pairLimits });
    const statuses = [await guess(a, 0), await guess(b, 1), await guess(a, 2), await guess(b, 3), await guess(a, 4)];
    // One hub's three failures, not three per replica.
    expect(statuses).toEqual([410, 410, 410, 429, 429]);
    const { code } = await a.mintPairingCode();
    expect((await postJson(`${b.url}/api/pair`, { code, name: 'Owner', platform: 'Test · Node' })).status).toBe(200);
  });
});

describe('[R20.43][R20.44] once, not once per replica', () => {
  it('[R20.44] a replica’s stale sweep leaves the questions agents keep announcing to another, and withdraws its own silent ones', async () => {
    const url = await logs.freshLogUrl();
    const sweep = { staleAfterMs: 600, staleSweepIntervalMs: 100 };
    const a = await startTestHost({ databaseUrl: url, token: TEST_TOKEN, ...sweep });
    const b = await startTestHost({ databaseUrl: url, token: TEST_TOKEN, ...sweep });
    const alive = await connectRuntime(a.url, TEST_TOKEN, 'alive');
    const dying = await connectRuntime(a.url, TEST_TOKEN, 'dying');
    const kept = questionRequest();
    const silent = questionRequest();
    await alive.socket.emitWithAck('announce', kept);
    await dying.socket.emitWithAck('announce', silent);
    await vi.waitFor(() => expect(b.registry.projection.get(kept.requestId)?.status).toBe('pending'));
    // The runtime helper re-announces each second (R8.1); here every 100 ms, to A only.
    const reannounce = setInterval(() => alive.socket.emit('announce', kept, () => undefined), 100);
    try {
      await vi.waitFor(() => expect(a.registry.projection.get(silent.requestId)?.status).toBe('withdrawn'), {
        timeout: 5_000,
      });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(b.registry.projection.get(kept.requestId)?.status).toBe('pending');
      expect(a.registry.projection.get(kept.requestId)?.status).toBe('pending');
    } finally {
      clearInterval(reannounce);
    }
  });

  it('[R20.67] the leader withdraws as stale a question whose replica died and whose agent never came back, and leaves one re-announced elsewhere', async () => {
    const url = await logs.freshLogUrl();
    const options = {
      databaseUrl: url,
      token: TEST_TOKEN,
      staleAfterMs: 600,
      staleSweepIntervalMs: 100,
      sharedLeaseMs: 300,
    };
    const leader = await startTestHost(options);
    const dies = await startTestHost(options);
    const lives = await startTestHost(options);
    expect(leader.leadership.leading).toBe(true);
    const orphan = questionRequest();
    const kept = questionRequest();
    const gone = await connectRuntime(dies.url, TEST_TOKEN, 'gone');
    const alive = await connectRuntime(lives.url, TEST_TOKEN, 'alive');
    await gone.socket.emitWithAck('announce', orphan);
    await alive.socket.emitWithAck('announce', kept);
    const reannounce = setInterval(() => alive.socket.emit('announce', kept, () => undefined), 100);
    try {
      // The replica goes with its agent, before its own sweep could withdraw the question.
      await dies.close();
      await vi.waitFor(() => expect(leader.registry.projection.get(orphan.requestId)?.status).toBe('withdrawn'), {
        timeout: 5_000,
      });
      expect(leader.registry.projection.get(orphan.requestId)).toMatchObject({
        withdrawnReason: expect.stringMatching(/The agent stopped waiting/),
      });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(leader.registry.projection.get(kept.requestId)?.status).toBe('pending');
    } finally {
      clearInterval(reannounce);
    }
  });

  it('[R20.43] the replica that started first leads; one that stops leading runs no deadline, and another takes over', async () => {
    const [a, b] = await twoReplicas();
    expect([a.leadership.leading, b.leadership.leading]).toEqual([true, false]);
    const runtime = await connectRuntime(a.url, TEST_TOKEN);
    const phone = await connectRemote(a.url, (await pairDevice(a)).credential);
    await phone.socket.emitWithAck('preferences:update', {
      askUserQuestionAutoResolutionEnabled: true,
      askUserQuestionAutoResolutionTimeoutMs: 1_000,
    });
    // A keeps running and holds the agent, but no longer leads: its deadline timer is off.
    await a.leadership.stop();
    const asked = performance.now();
    await runtime.socket.emitWithAck('announce', questionRequest());
    await new Promise((resolve) => setTimeout(resolve, 1_400));
    // Past the deadline: resolved only if B leads already (it tries every 3 s), never by A.
    if (!b.leadership.leading) expect(runtime.resolved).toHaveLength(0);
    await vi.waitFor(() => expect(b.leadership.leading).toBe(true), { timeout: 5_000 });
    // B resolves what fell due, and the answer reaches the agent on A.
    await vi.waitFor(() => expect(runtime.resolved).toHaveLength(1), { timeout: 3_000 });
    expect(runtime.resolved[0]?.resolution).toMatchObject({ resolvedBy: 'auto' });
    expect(performance.now() - asked).toBeGreaterThan(1_000);
  });
});

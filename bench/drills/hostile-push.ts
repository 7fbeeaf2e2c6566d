// Hostile Web Push endpoints (R12.20), against real `askaway start` processes. A paired device tries to make the
// hub post to this machine: it subscribes Web Push at every address family a device may not name (loopback,
// private, link-local, CGNAT, unique-local, IPv4-mapped, numeric IPv4 forms, localhost and LAN names, plain http,
// credentials), and at this machine's "internal" service in several spellings; then at a public-looking name
// whose DNS answer is this machine (a rebinding name server, bench/support/rebinding-dns.mjs) and presses "Test".
// A second host, started by its owner with --allow-private-push, has a push service on loopback that answers
// with redirects (301/302/303/307/308) to the internal service, and one that answers 500 with the internal
// service's secrets. Counted: requests the internal service received (must be 0), subscriptions refused,
// secrets in what the device read (must be none), /healthz latency (under 1 s throughout), host RSS before and
// after (within 300 MiB), both hosts alive at the end.
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import path from 'node:path';
import { type Socket } from 'socket.io-client';
import { errorMessage } from '../../lib/contracts';
import { makeSubscription } from '../../lib/host/push/test-helpers';
import { REFUSED_DEVICE_TOPICS } from '../../lib/host/test-support/refused-topics';
import { mib, watchHealth, type HealthWatch } from '../support/drill-watch';
import { type DrillOutcome } from '../support/figures';
import { procUsage, startHost, type HostProcess } from '../support/host-process';
import { isMain, runAlone } from '../support/main-guard';
import { connectDevice, pairBenchDevice } from '../support/remote-client';

const ROUNDS = Number(process.env.DRILL_PUSH_ROUNDS ?? 10);
const HEALTH_BUDGET_MS = 1_000;
const RSS_BUDGET_BYTES = 300 * 2 ** 20;
const REBIND_SUFFIX = '.rebind.askaway-drill.example.com';
const SECRET = 'db_password=hunter2 token=ghp_drill0123456789';
const PRELOAD = path.join(import.meta.dirname, '..', 'support', 'rebinding-dns.mjs');

/** A local server that counts what it receives and answers as `answer` says. */
async function startServer(answer: (path: string) => { status: number; headers?: Record<string, string> }) {
  const received: string[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(`${req.method ?? ''} ${req.url ?? ''}`);
      const { status, headers } = answer(req.url ?? '/');
      res.writeHead(status, headers);
      res.end(status >= 400 || status === 200 ? SECRET : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Ack = { ok?: boolean; webPush?: string; detail?: string; error?: { code?: string; message?: string } };

const emit = (socket: Socket, event: string, payload: unknown): Promise<Ack> =>
  socket.timeout(10_000).emitWithAck(event, payload) as Promise<Ack>;

const subscription = (endpoint: string) => ({ subscription: makeSubscription(endpoint).subscription });

async function alive(host: HostProcess): Promise<boolean> {
  try {
    return (await fetch(`${host.url}/healthz`, { signal: AbortSignal.timeout(HEALTH_BUDGET_MS) })).ok;
  } catch {
    return false;
  }
}

export async function drillPush(): Promise<DrillOutcome> {
  const problems: string[] = [];
  /** This machine's service that is no push service: an admin API, a database console. */
  const internal = await startServer((url) => ({ status: url.startsWith('/db') ? 500 : 200 }));
  const redirectStatuses = [301, 302, 303, 307, 308];
  /** The owner's push service on loopback, answering with a redirect to the internal service, or an error page. */
  const pushService = await startServer((url) => {
    const status = Number(/\/push\/(\d+)/.exec(url)?.[1] ?? 201);
    return status >= 300 && status < 400 ? { status, headers: { Location: `${internal.url}/admin` } } : { status };
  });
  // A device's host, as run by default, whose DNS answers one public-looking name with this machine.
  const guarded = await startHost({
    env: { NODE_OPTIONS: `--import=${PRELOAD}`, REBINDING_DNS_SUFFIX: REBIND_SUFFIX },
  });
  const allowing = await startHost({ extraArgs: ['--allow-private-push'] });
  const hosts = [guarded, allowing];
  let refused = 0;
  let attempts = 0;
  let tests = 0;
  let before = hosts.map(() => ({ cpuMicros: 0, rssBytes: 0, at: 0 }));
  let after = before;
  let health: HealthWatch = { probes: 0, slowestMs: 0, misses: [] };
  try {
    const device = await pairBenchDevice(guarded, 'drill-phone');
    const owned = await pairBenchDevice(allowing, 'drill-phone');
    before = hosts.map((host) => procUsage(host.pid));
    const stopWatching = watchHealth(hosts, HEALTH_BUDGET_MS);
    try {
      const spellings = [
        ...REFUSED_DEVICE_TOPICS.map(({ family, url }) => ({ family, url })),
        // The internal service itself, in the spellings a device would try.
        ...[
          `http://127.0.0.1:${internal.port}/admin`,
          `http://127.0.0.1:${internal.port}/db`,
          `https://127.0.0.1:${internal.port}/admin`,
          `https://localhost:${internal.port}/admin`,
          `https://[::ffff:127.0.0.1]:${internal.port}/admin`,
          `https://[::ffff:7f00:1]:${internal.port}/admin`,
          `https://2130706433:${internal.port}/admin`,
          `https://0x7f.1:${internal.port}/admin`,
        ].map((url) => ({ family: `internal service ${url}`, url })),
      ];
      for (let round = 0; round < ROUNDS; round += 1) {
        const socket = await connectDevice(guarded, device.credential);
        const acks = await Promise.all(
          spellings.map(async ({ family, url }) => ({
            family,
            ack: await emit(socket, 'push:subscribe', subscription(url)),
          })),
        );
        socket.disconnect();
        for (const { family, ack } of acks) {
          attempts += 1;
          if (
            ack.ok === false &&
            ack.error?.code === 'invalid-message' &&
            /^push subscription refused/.test(ack.error.message ?? '')
          )
            refused += 1;
          else problems.push(`${family}: ${JSON.stringify(ack).slice(0, 160)}`);
        }
      }
      // Then "Test" after each: nothing stored, nothing sent, nothing read.
      for (const { family, url } of spellings.filter((spelling) => spelling.family.startsWith('internal'))) {
        const socket = await connectDevice(guarded, device.credential);
        await emit(socket, 'push:subscribe', subscription(url));
        const ack = await emit(socket, 'push:test', {});
        tests += 1;
        if (ack.webPush !== 'not-subscribed')
          problems.push(`${family}: push:test said ${JSON.stringify(ack).slice(0, 200)}`);
        socket.disconnect();
      }

      // A public-looking name, taken at subscribe time, whose DNS answers with this machine when the hub sends.
      // Each round on a fresh connection: a remote's message budget would otherwise answer `rate-limited`.
      const rebinding = `https://push${REBIND_SUFFIX}:${internal.port}/admin`;
      for (let round = 0; round < ROUNDS; round += 1) {
        const socket = await connectDevice(guarded, device.credential);
        const taken = await emit(socket, 'push:subscribe', subscription(rebinding));
        if (taken.ok !== true)
          problems.push(`the rebinding name was refused at subscribe time: ${JSON.stringify(taken)}`);
        const ack = await emit(socket, 'push:test', {});
        tests += 1;
        if (ack.webPush !== 'failed') problems.push(`rebinding push:test: ${JSON.stringify(ack).slice(0, 160)}`);
        socket.disconnect();
      }

      // The owner allowed a push service on loopback: its redirects are answers, never followed; its body stays home.
      for (let round = 0; round < ROUNDS; round += 1) {
        const owner = await connectDevice(allowing, owned.credential);
        for (const status of [...redirectStatuses, 500]) {
          const endpoint = `${pushService.url}/push/${status}`;
          const subscribed = await emit(owner, 'push:subscribe', subscription(endpoint));
          if (subscribed.ok !== true)
            problems.push(`the owner's push service was refused: ${JSON.stringify(subscribed)}`);
          const ack = await emit(owner, 'push:test', {});
          tests += 1;
          if (ack.webPush !== 'failed')
            problems.push(`${status}: push:test said ${ack.webPush ?? JSON.stringify(ack)}`);
          if (JSON.stringify(ack).includes('hunter2')) problems.push(`${status}: the device read the server's body`);
        }
        owner.disconnect();
      }
    } finally {
      health = await stopWatching();
    }
    after = hosts.map((host) => procUsage(host.pid));
    problems.push(...health.misses.slice(0, 5));
    hosts.forEach((host, index) => {
      const grew = (after[index]?.rssBytes ?? 0) - (before[index]?.rssBytes ?? 0);
      if (grew > RSS_BUDGET_BYTES) problems.push(`the host on ${host.url} grew ${mib(grew)} MiB`);
    });
    for (const host of hosts) if (!(await alive(host))) problems.push(`the host on ${host.url} is down`);
    if (internal.received.length > 0)
      problems.push(
        `the internal service received ${internal.received.length}: ${internal.received.slice(0, 3).join(', ')}`,
      );
  } catch (error) {
    problems.push(errorMessage(error));
  } finally {
    await Promise.all(hosts.map((host) => host.stop()));
    await internal.close();
    await pushService.close();
  }
  return {
    name: 'hostile Web Push endpoints from a device (R12.20)',
    ok: problems.length === 0,
    detail:
      `${refused}/${attempts} subscriptions refused; ${tests} push tests (a rebinding name, ${redirectStatuses.join('/')} ` +
      `redirects, a 500 with secrets): the internal service received ${internal.received.length} requests, the ` +
      `owner's push service ${pushService.received.length}; ${hosts
        .map((_, index) => {
          const [start, end] = [before[index], after[index]];
          const cpu = ((end?.cpuMicros ?? 0) - (start?.cpuMicros ?? 0)) / 1e6;
          return `${index === 0 ? 'default' : '--allow-private-push'} host RSS ${mib(start?.rssBytes ?? 0)} → ${mib(end?.rssBytes ?? 0)} MiB, CPU ${cpu.toFixed(1)} s`;
        })
        .join(', ')}; ` +
      `/healthz slowest ${Math.round(health.slowestMs)} ms over ${health.probes} probes` +
      (problems.length > 0 ? `; ${problems.slice(0, 5).join('; ')}` : ''),
  };
}

if (isMain(import.meta.url))
  await runAlone('drills/hostile-push', async () => ({ figures: [], drills: [await drillPush()] }));

import http from 'node:http';
import { io } from 'socket.io-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConnection, type Connection } from '../lib/client/connection';
import { createRemoteStore, type RemoteStore } from '../lib/client/store';
import { MemoryOutbox } from '../lib/client/test-support/fixtures';
import { REMOTE_NAMESPACE, REMOTE_PROTOCOL_VERSION, type PairResponse } from '../lib/contracts';
import { askUserQuestionTool, executeToolCall } from '../lib/core';
import { asAdmin, createDatabase, type TestDatabase } from '../lib/host/store/test-support/pg-test-database';
import { startTcpProxy, type TcpProxy } from '../lib/host/store/test-support/tcp-proxy';
import { closeAllClients } from '../lib/host/test-support/clients';
import { redeemPairingCode } from '../lib/host/test-support/devices';
import {
  AFFINITY_COOKIE,
  freePort,
  nginxMissing,
  startNginxBalancer,
  type NginxBalancer,
} from '../lib/host/test-support/nginx-balancer';
import { killAllCli, startCliHost } from '../lib/host/test-support/spawn-cli';
import { tempDir } from '../lib/host/test-support/test-host';
import { createRuntimeClient, type RuntimeClient } from '../lib/runtime/runtime-broker';
import { TWO_QUESTIONS } from '../lib/runtime/test-support/mcp-scenarios';

// A team hub as docs/team-hub/compose.yaml runs it, without Docker: real `askaway start --database` replicas on one
// PostgreSQL database, and nginx in front of them with docs/team-hub/nginx.conf as it is.

const TOKEN = 'team-hub-balancer-token';
const SLOW = { timeout: 20_000, interval: 25 };
const skipReason = nginxMissing();
if (skipReason) console.warn(`Skipping the load balancer tests: ${skipReason}`);

type Replica = Awaited<ReturnType<typeof startCliHost>> & { address: string };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  closeAllClients();
  killAllCli();
});

/** `count` replicas on a fresh database, each with its own data dir and port, the same agent token, and nginx. */
async function startTeamHub(
  count: number,
): Promise<{ replicas: Replica[]; balancer: NginxBalancer; db: TestDatabase }> {
  const db = await createDatabase();
  cleanups.push(() => db.drop());
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const replicas = await Promise.all(
    Array.from({ length: count }, async () => {
      const replica = await startCliHost(['--port', '0', '--data-dir', tempDir(), '--public-url', publicUrl], {
        ASKAWAY_TOKEN: TOKEN,
        ASKAWAY_DATABASE_URL: db.url,
      });
      return { ...replica, address: new URL(replica.url).host };
    }),
  );
  const balancer = await startNginxBalancer({ port, replicas: replicas.map((replica) => replica.address) });
  cleanups.push(() => balancer.stop());
  return { replicas, balancer, db };
}

/** The pairing code of a replica's start banner: minted in the database, so it works through any replica. */
const bannerCode = (replica: Replica) => new URLSearchParams(new URL(replica.pair).hash.slice(1)).get('code') ?? '';

/**
 * The replica the agent asked through: the one whose output has the question's line (each question's lines come from
 * the replica its agent announced to, R20.48; which agents are connected is shared by all, R20.66).
 */
async function replicaThatAsked(replicas: readonly Replica[], question: string): Promise<Replica> {
  let found: Replica | undefined;
  await vi.waitFor(() => {
    const asked = replicas.filter((replica) =>
      replica
        .stdout()
        .split('\n')
        .some((line) => /^\d\d:\d\d:\d\d \? /.test(line) && line.includes(question)),
    );
    expect(asked).toHaveLength(1);
    found = asked[0];
  }, SLOW);
  if (!found) throw new Error('no replica logged the question');
  return found;
}

/**
 * The web app's connection (lib/client/connection.ts: snapshot, then resume by seq after every reconnect, answers
 * through its outbox) over a real socket.io socket through nginx, holding the affinity cookie a browser would.
 * `history` records, at every change of its state, the ids of the pending cards it shows.
 */
function openPhone(balancer: NginxBalancer, paired: PairResponse, affinity: string) {
  const store: RemoteStore = createRemoteStore();
  const synced: ('snapshot' | 'resume')[] = [];
  const history: string[][] = [];
  store.subscribe(() => {
    const pending = [...store.getState().host.interactions.values()]
      .filter((view) => view.status === 'pending')
      .map((view) => view.requestId);
    const last = history.at(-1);
    if (!last || last.join() !== pending.join()) history.push(pending);
  });
  const connection: Connection = createConnection({
    store,
    openSocket: (url, auth) =>
      io(url, {
        auth: (send) => send(auth()),
        transports: ['websocket'],
        extraHeaders: { Cookie: `${AFFINITY_COOKIE}=${affinity}` },
        // The app's own reconnect pace (lib/client/app-connection.ts).
        reconnectionDelay: 400,
        reconnectionDelayMax: 4_000,
        randomizationFactor: 0.3,
        timeout: 8_000,
      }),
    outbox: new MemoryOutbox(),
    onSynced: (how) => synced.push(how),
  });
  cleanups.push(() => connection.stop());
  connection.start({
    hostUrl: balancer.url,
    hostName: paired.hostName,
    deviceId: paired.deviceId,
    deviceName: 'Phone',
    credential: paired.credential,
  });
  return { connection, store, synced, history, state: () => store.getState() };
}

/** The log's events about one interaction, straight from the database. */
async function eventsAbout(db: TestDatabase, requestId: string): Promise<string[]> {
  const rows = await asAdmin<{ type: string; body: unknown }>(
    'SELECT type, body FROM askaway_events ORDER BY seq',
    [],
    db.url,
  );
  return rows.filter((row) => JSON.stringify(row.body).includes(requestId)).map((row) => row.type);
}

describe.skipIf(skipReason !== undefined)(
  'a team hub behind nginx (docs/team-hub/nginx.conf)',
  { timeout: 60_000 },
  () => {
    it('[R20.50][R20.51][R20.53][R20.54][R20.55] the agent’s replica SIGKILLed mid-question: the agent re-announces through nginx on a live one, the card stays single, the answer given meanwhile reaches it once, and a phone on the dead replica resumes by seq', async () => {
      const { replicas, balancer, db } = await startTeamHub(3);
      const [first, second] = replicas;
      if (!first || !second) throw new Error('three replicas');
      // Pairing through nginx, as a phone does, with a code minted by one replica's banner.
      const pairedA = await redeemPairingCode(balancer.url, bannerCode(first), 'Phone on another replica');
      const pairedB = await redeemPairingCode(balancer.url, bannerCode(second), 'Phone on the agent’s replica');

      // The agent (the runtimes' own connection, lib/runtime/host-link.ts) reaches nginx through a relay the test
      // can hold shut, to keep it between replicas while the answer is given.
      const agentNetwork: TcpProxy = await startTcpProxy(balancer.port);
      cleanups.push(() => agentNetwork.close());
      const runtime: RuntimeClient = createRuntimeClient({
        url: `http://127.0.0.1:${agentNetwork.port}`,
        token: TOKEN,
        label: 'balancer test agent',
      });
      cleanups.push(() => runtime.close());
      await runtime.connection.ready();

      let settled = false;
      const call = executeToolCall({
        tool: askUserQuestionTool,
        input: TWO_QUESTIONS,
        sessionId: 'root',
        broker: runtime.broker,
      }).finally(() => (settled = true));
      const doomed = await replicaThatAsked(replicas, 'Which database?');
      const others = replicas.filter((replica) => replica !== doomed);

      // One phone on another replica than the agent's, one on the agent's: nginx's cookie decides, as for a browser.
      const phone = openPhone(balancer, pairedA, await balancer.affinityFor(others[0]?.address ?? ''));
      const stranded = openPhone(balancer, pairedB, await balancer.affinityFor(doomed.address));
      await vi.waitFor(() => expect([phone.synced, stranded.synced]).toEqual([['snapshot'], ['snapshot']]), SLOW);
      await vi.waitFor(() => expect(phone.history.at(-1)).toHaveLength(1), SLOW);
      const requestId = phone.history.at(-1)?.[0] ?? '';
      await vi.waitFor(() => expect(stranded.history.at(-1)).toEqual([requestId]), SLOW);

      // The agent's replica dies; the agent's reconnects are refused until the answer is in.
      await agentNetwork.refuseNew();
      const agentDown = new Promise<void>((resolve) =>
        runtime.connection.onConnectionChange((up) => {
          if (!up) resolve();
        }),
      );
      doomed.child.kill('SIGKILL');
      expect(await doomed.exited).toBe('SIGKILL');
      await agentDown;

      await phone.connection.submitResponse(requestId, {
        action: 'accept',
        content: { answers: { 'Which database?': 'SQLite' } },
      });
      await vi.waitFor(() => expect(phone.state().answers.get(requestId)?.phase).toBe('accepted'), SLOW);
      expect(runtime.connection.connected).toBe(false);
      expect(settled).toBe(false);

      // Back on the network: nginx passes the agent to a live replica, where it re-announces and gets the answer.
      await agentNetwork.restore();
      await expect(call).resolves.toMatchObject({
        ok: true,
        content: expect.stringContaining('"Which database?"="SQLite"'),
      });
      await vi.waitFor(async () => expect(await eventsAbout(db, requestId)).toContain('interaction.delivered'), SLOW);
      // Once asked, once answered, once delivered: the re-announce wrote nothing, the answer went to the agent once.
      expect(await eventsAbout(db, requestId)).toEqual([
        'interaction.requested',
        'UserInputAutoResolutionUpdated',
        'interaction.resolved',
        'interaction.delivered',
      ]);

      // The phone on the dead replica came back through nginx on a live one and resumed by seq: no second snapshot.
      await vi.waitFor(
        () => expect(stranded.state().host.interactions.get(requestId)?.deliveredAt).toBeDefined(),
        SLOW,
      );
      expect(stranded.synced).toEqual(['snapshot', 'resume']);
      expect(stranded.state().host.lastSeq).toBe(phone.state().host.lastSeq);
      expect(stranded.state().host.interactions.get(requestId)).toEqual(phone.state().host.interactions.get(requestId));
      // Neither phone ever showed the card twice or lost it before the answer: one card, then none (each opened while
      // it was waiting, so perhaps after an empty state before its snapshot).
      for (const { history } of [phone, stranded])
        expect(history[0]?.length === 0 ? history.slice(1) : history).toEqual([[requestId], []]);
    });

    it('[R20.52][R20.56] the web app’s long-polling fallback keeps its session on one replica through nginx, whose public origin the replicas accept and whose foreign ones they refuse', async () => {
      const { replicas, balancer } = await startTeamHub(2);
      const [first] = replicas;
      if (!first) throw new Error('two replicas');
      const paired = await redeemPairingCode(balancer.url, bannerCode(first));
      const poll = (origin: string) => {
        const socket = io(`${balancer.url}${REMOTE_NAMESPACE}`, {
          auth: { credential: paired.credential, protocolVersion: REMOTE_PROTOCOL_VERSION },
          // As a browser polls: no WebSocket, the Origin of the page, cookies kept (the affinity cookie nginx sets).
          transports: ['polling'],
          withCredentials: true,
          extraHeaders: { Origin: origin },
          reconnection: false,
          forceNew: true,
        });
        cleanups.push(() => void socket.disconnect());
        return socket;
      };

      const socket = poll(balancer.url);
      const troubles: string[] = [];
      socket.on('disconnect', (reason) => troubles.push(reason));
      socket.on('connect_error', (error) => troubles.push(error.message));
      await new Promise<void>((resolve, reject) => {
        socket.once('snapshot', () => resolve());
        socket.once('disconnect', (reason) =>
          reject(new Error(`the polling session broke before its snapshot: ${reason}`)),
        );
      });
      // Each round trip is a POST and a long-poll's answer: every one must reach the replica holding the session.
      for (let round = 0; round < 20; round += 1) {
        expect(await socket.timeout(5_000).emitWithAck('snapshot:get')).toMatchObject({ ok: true });
      }
      expect(troubles).toEqual([]);
      const polls = balancer.accessLog().filter((line) => line.request.includes('transport=polling'));
      expect(polls.length).toBeGreaterThanOrEqual(40);
      expect(new Set(polls.map((line) => line.affinity)).size).toBe(1);
      expect(new Set(polls.map((line) => line.replicas.join())).size).toBe(1);
      // A key nginx did not mint is replaced; one it did is kept.
      const cookieFor = async (cookie: string) =>
        (await fetch(`${balancer.url}/manifest.webmanifest`, { headers: { Cookie: cookie } })).headers.get(
          'set-cookie',
        );
      expect(await cookieFor(`${AFFINITY_COOKIE}=../../etc/passwd`)).toMatch(
        new RegExp(`^${AFFINITY_COOKIE}=[0-9a-f]{32}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax$`),
      );
      expect(await cookieFor(`${AFFINITY_COOKIE}=${polls[0]?.affinity ?? ''}`)).toBeNull();

      // The hub's own checks still hold behind nginx, which passes Host and Origin as the client sent them.
      const foreign = poll('https://attacker.example');
      await expect(
        new Promise((resolve, reject) => {
          foreign.once('connect', () => reject(new Error('a foreign origin connected')));
          foreign.once('connect_error', (error) => resolve(error.message));
        }),
      ).resolves.toBeTruthy();
      // fetch() would drop a Host header: node:http sends it.
      const rebound = await new Promise<number>((resolve, reject) =>
        http
          .get(
            { host: '127.0.0.1', port: balancer.port, headers: { Host: 'rebound.attacker.example' } },
            (response) => {
              response.resume();
              resolve(response.statusCode ?? 0);
            },
          )
          .once('error', reject),
      );
      expect(rebound).toBe(421);
    });
  },
);

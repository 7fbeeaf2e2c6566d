import { afterEach, describe, expect, it } from 'vitest';
import { WHOAMI_API_PATH } from '../lib/contracts';
import { mountAgentBridges, type AgentBridges } from '../lib/bridges';
import { pairDevice } from '../lib/host/test-support/devices';
import { closeAllHosts, startTestHost, tempDir } from '../lib/host/test-support/test-host';
import { sendJson } from '../lib/http/http-replies';
import { type HubContribution, type HubServices } from '../lib/runtime/hub-contribution';
import { checkStatus, formatStatus, statusJson } from './commands/status';

const mounted: AgentBridges[] = [];

afterEach(async () => {
  await Promise.all(mounted.splice(0).map((bridges) => bridges.close()));
  await closeAllHosts();
});

/** An agent the host has never heard of, as a new folder's `hub-contribution.ts` would add it. */
function fakeAgent() {
  const started: HubServices[] = [];
  let stopped = 0;
  const contribution: HubContribution = {
    agent: 'fake-agent',
    routes: (hub) => [
      {
        method: 'POST',
        path: '/hooks/fake-agent',
        handler: async (_req, res, context) => {
          const auth = await context.authenticateAgent(context.bearerToken());
          if (!auth.ok) sendJson(res, 401, { error: auth.message });
          else sendJson(res, 200, { caller: auth.principal.kind, hub: hub.localMachineName, path: context.pathname });
        },
      },
    ],
    start: (hub) => {
      started.push(hub);
      hub.log('Fake bridge: started');
      return { stop: () => void (stopped += 1) };
    },
    status: (_env, dataDir) => ({
      json: { fakeAgent: { dataDir } },
      lines: [`Fake:       a bridge for ${dataDir}`],
    }),
  };
  return { contribution, started, stopped: () => stopped };
}

describe('[R18.29] an agent adds its part of the hub from its own folder', () => {
  it('[R18.29] a route, a bridge and a status line of an agent the host does not know are served, started and reported', async () => {
    const host = await startTestHost({ hostName: 'hub-box' });
    const fake = fakeAgent();
    const logs: string[] = [];
    // As `askaway start` mounts the agents (bin/commands/start.ts), with the CLI's log.
    const bridges = mountAgentBridges(host, { contributions: [fake.contribution], log: (line) => logs.push(line) });
    mounted.push(bridges);

    const hook = (token: string) =>
      fetch(`${host.url}/hooks/fake-agent/session-1`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
      });
    const accepted = await hook(host.token);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({
      caller: 'local-agent',
      hub: 'hub-box',
      path: '/hooks/fake-agent/session-1',
    });
    // The host's own check of who calls: a phone's credential is not an agent's.
    expect((await hook((await pairDevice(host)).credential)).status).toBe(401);

    expect(fake.started).toHaveLength(1);
    expect(logs).toEqual(['Fake bridge: started']);
    const [hub] = fake.started;
    expect(hub).toMatchObject({ url: host.url, dataDir: host.dataDir, insecureTls: false });
    // What the bridge was given reaches the host like any runtime.
    const whoami = await fetch(`${hub?.url}${WHOAMI_API_PATH}`, { headers: { Authorization: `Bearer ${hub?.token}` } });
    expect(await whoami.json()).toMatchObject({ machine: { id: 'local' } });

    const env = { ASKAWAY_URL: host.url, ASKAWAY_TOKEN: host.token, ASKAWAY_DATA_DIR: tempDir(), HOME: tempDir() };
    const report = await checkStatus(env, [fake.contribution]);
    expect(formatStatus(report)).toContain(`\nFake:       a bridge for ${env.ASKAWAY_DATA_DIR}\n`);
    expect(statusJson(report)).toMatchObject({ reachable: true, fakeAgent: { dataDir: env.ASKAWAY_DATA_DIR } });

    mounted.splice(0);
    await bridges.close();
    expect(fake.stopped()).toBe(1);
    expect((await hook(host.token)).status).not.toBe(200);
  });

  it("[R18.29] an agent's status fields sit beside the hub's and cannot replace them", async () => {
    const env = { ASKAWAY_URL: 'http://127.0.0.1:9', ASKAWAY_DATA_DIR: tempDir(), HOME: tempDir() };
    const impostor: HubContribution = {
      agent: 'impostor',
      status: () => ({ json: { url: 'http://elsewhere.invalid', impostor: true }, lines: [] }),
    };
    expect(statusJson(await checkStatus(env, [impostor]))).toMatchObject({ url: 'http://127.0.0.1:9', impostor: true });
  });
});

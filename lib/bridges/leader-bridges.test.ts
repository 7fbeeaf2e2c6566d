import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Leadership } from '../host/leadership';
import { setUpPgTestLogs } from '../host/store/test-support/pg-test-logs';
import { closeAllHosts, startTestHost, TEST_TOKEN } from '../host/test-support/test-host';
import { type HubContribution, type HubServices } from '../runtime/hub-contribution';
import { mountAgentBridges, type AgentBridges } from './index';
import { runBridgesWhileLeading } from './leader-bridges';

const logs = setUpPgTestLogs();
const mounted: AgentBridges[] = [];

afterEach(async () => {
  await Promise.all(mounted.splice(0).map((bridges) => bridges.close()));
  await closeAllHosts();
});

/** A bridge that counts how many of it run at once, as two attached to one Codex daemon would both answer. */
function countingBridge() {
  let running = 0;
  let starts = 0;
  const contribution: HubContribution = {
    agent: 'counting',
    start: () => {
      running += 1;
      starts += 1;
      return {
        stop: async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          running -= 1;
        },
      };
    },
  };
  return { contribution, running: () => running, starts: () => starts };
}

/** A leadership a test hands over by hand. */
function handLeadership(leading: boolean) {
  const listeners = new Set<(leading: boolean) => void>();
  const leadership: Pick<Leadership, 'leading' | 'onChange'> = {
    get leading() {
      return leading;
    },
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const set = (next: boolean) => {
    leading = next;
    for (const listener of listeners) listener(next);
  };
  return { leadership, set, listeners };
}

const services = (lines: string[]): HubServices => ({
  url: 'http://127.0.0.1:1',
  token: 'unused',
  insecureTls: false,
  dataDir: '/nonexistent',
  localMachineName: 'box',
  runtimeFor: () => {
    throw new Error('not used');
  },
  log: (line) => lines.push(line),
});

describe('[R20.45] the agents’ bridges run in the leader only', () => {
  it('[R20.45] a leader starts them at once; losing the lead stops them, winning it again starts one set, never two', async () => {
    const bridge = countingBridge();
    const hand = handLeadership(true);
    const lines: string[] = [];
    const bridges = runBridgesWhileLeading(hand.leadership, [bridge.contribution], services(lines));
    expect(bridge.running()).toBe(1);
    // Lost and won again in a row, before the stop has finished: still one set once things settle.
    hand.set(false);
    hand.set(true);
    hand.set(false);
    hand.set(true);
    await vi.waitFor(() => expect(bridge.starts()).toBeGreaterThan(1));
    await bridges.close();
    expect(bridge.running()).toBe(0);
    expect(hand.listeners.size).toBe(0);
    expect(lines).toContain('Agent bridges: stopped, another hub process leads the log now.');
  });

  it('[R20.45] a follower starts none until it leads, and says why', async () => {
    const bridge = countingBridge();
    const hand = handLeadership(false);
    const lines: string[] = [];
    const bridges = runBridgesWhileLeading(hand.leadership, [bridge.contribution], services(lines));
    expect(bridge.running()).toBe(0);
    expect(lines).toEqual(['Agent bridges: waiting to lead the log (another hub process runs them).']);
    hand.set(true);
    await vi.waitFor(() => expect(bridge.running()).toBe(1));
    await bridges.close();
    expect(bridge.running()).toBe(0);
  });

  it('[R20.45] two replicas on one log run one set of bridges; when the leader stops leading, the other takes them over', async () => {
    const url = await logs.freshLogUrl();
    const a = await startTestHost({ databaseUrl: url, token: TEST_TOKEN });
    const b = await startTestHost({ databaseUrl: url, token: TEST_TOKEN });
    const onA = countingBridge();
    const onB = countingBridge();
    mounted.push(mountAgentBridges(a, { contributions: [onA.contribution] }));
    mounted.push(mountAgentBridges(b, { contributions: [onB.contribution] }));
    expect([onA.running(), onB.running()]).toEqual([1, 0]);

    await a.leadership.stop();
    await vi.waitFor(() => expect(onA.running()).toBe(0));
    // B takes the lock at its next try (every 3 s), and its bridges with it.
    await vi.waitFor(() => expect(onB.running()).toBe(1), { timeout: 8_000 });
    expect(onA.running() + onB.running()).toBe(1);
  });
});

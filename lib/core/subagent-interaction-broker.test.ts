import { describe, expect, it, vi } from 'vitest';
import { InteractionOriginSchema, type InteractionOrigin } from '../contracts';
import {
  buildSubagentInteractionOrigin,
  childSubagentContext,
  withSubagentInteractionBroker,
} from './subagent-interaction-broker';
import { type PermissionBrokerPort, type PermissionRequest } from './tool-types';
import { expectItem } from './test-support/expect-item';

function recordingBroker() {
  const seen: PermissionRequest[] = [];
  const port: PermissionBrokerPort = {
    requestPermission: vi.fn(async (request: PermissionRequest) => {
      seen.push(request);
      return { decision: 'allow' as const };
    }),
  };
  return { port, seen };
}

const request = (extra: Partial<PermissionRequest> = {}): PermissionRequest => ({
  requestId: 'r1',
  sessionId: 'grandchild-session',
  turnId: 'turn-9',
  toolName: 'AskUserQuestion',
  input: { questions: [] },
  ...extra,
});

const child = childSubagentContext(
  { sessionId: 'root-session' },
  { agentId: 'a1', agentName: 'planner', sessionId: 'child-session' },
);
const grandchild = childSubagentContext(child, {
  agentId: 'a2',
  agentName: 'db-expert',
  agentType: 'explore',
  sessionId: 'grandchild-session',
});

describe('subagent interaction broker', () => {
  it('[R7.1] computes depth and path for nested subagents', () => {
    expect(child).toMatchObject({ parentSessionId: 'root-session', depth: 1, path: ['planner'] });
    expect(grandchild).toMatchObject({ parentSessionId: 'child-session', depth: 2, path: ['planner', 'db-expert'] });
  });

  it('[R7.1] routes a subagent question to the parent session with a subagent origin', async () => {
    const { port, seen } = recordingBroker();
    const signal = new AbortController().signal;
    await withSubagentInteractionBroker(port, child).requestPermission(request({ sessionId: 'child-session' }), {
      signal,
    });
    expect(seen[0]).toMatchObject({ sessionId: 'root-session', requestId: 'r1', toolName: 'AskUserQuestion' });
    expect(expectItem(seen, 0).origin).toEqual({
      kind: 'subagent',
      label: 'planner',
      path: ['planner'],
      depth: 1,
      agentId: 'a1',
      sessionId: 'child-session',
      parentSessionId: 'root-session',
      turnId: 'turn-9',
    });
    expect(port.requestPermission).toHaveBeenCalledWith(expect.anything(), { signal });
  });

  it('[R7.1] keeps an origin that is already set', async () => {
    const { port, seen } = recordingBroker();
    const origin: InteractionOrigin = { kind: 'root', label: 'main', path: [], depth: 0 };
    await withSubagentInteractionBroker(port, child).requestPermission(request({ origin }));
    expect(expectItem(seen, 0).origin).toBe(origin);
  });

  it('[R7.2] stacked wrappers: outermost sessionId wins, innermost origin wins', async () => {
    const { port, seen } = recordingBroker();
    const childBroker = withSubagentInteractionBroker(port, child);
    const grandchildBroker = withSubagentInteractionBroker(childBroker, grandchild);
    await grandchildBroker.requestPermission(request());
    expect(expectItem(seen, 0).sessionId).toBe('root-session');
    expect(expectItem(seen, 0).origin).toMatchObject({
      label: 'planner › db-expert',
      path: ['planner', 'db-expert'],
      depth: 2,
      agentId: 'a2',
      agentType: 'explore',
      sessionId: 'grandchild-session',
      parentSessionId: 'child-session',
    });
  });

  it('[R7.2] builds origins that always satisfy the contract, even for extreme contexts', () => {
    const deep = {
      ...grandchild,
      depth: 40,
      path: Array.from({ length: 30 }, (_, i) => `agent-${i}-${'x'.repeat(100)}`),
      agentId: '',
      sessionId: 's'.repeat(500),
    };
    const origin = buildSubagentInteractionOrigin(deep, '');
    expect(InteractionOriginSchema.safeParse(origin).success).toBe(true);
    expect(origin.turnId).toBeUndefined();
    expect(origin.agentId).toBeUndefined();
    const empty = buildSubagentInteractionOrigin({ ...child, path: [] });
    expect(empty.label).toBe('planner');
  });
});

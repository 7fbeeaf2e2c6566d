import { afterEach, describe, expect, it, vi } from 'vitest';
import { interactionKindForTool, InteractionRequestSchema } from '../../contracts';
import { startRuntimeTestServer, type RuntimeTestServer } from '../test-support/runtime-test-server';
import { startDemoAgent, type DemoAgent } from './demo-agent';
import { DEMO_STORY } from './story';
import { expectItem } from '../../core/test-support/expect-item';

const TOKEN = 'demo-token';
let server: RuntimeTestServer | undefined;
let demo: DemoAgent | undefined;

afterEach(async () => {
  await demo?.stop();
  demo = undefined;
  await server?.close();
  server = undefined;
});

const firstAnnounces = (target: RuntimeTestServer) => {
  const seen = new Map<string, (typeof target.announces)[number]>();
  for (const request of target.announces) if (!seen.has(request.requestId)) seen.set(request.requestId, request);
  return [...seen.values()];
};

describe('demo agent', () => {
  it('every scripted call is a valid interaction request', () => {
    expect(DEMO_STORY.map((step) => step.tool)).toEqual(
      expect.arrayContaining(['AskUserQuestion', 'ExitPlanMode', 'Bash']),
    );
    expect(new Set(DEMO_STORY.map((step) => step.agent))).toEqual(new Set(['root', 'reviewer', 'tests']));
    for (const step of DEMO_STORY) {
      const parsed = InteractionRequestSchema.safeParse({
        kind: interactionKindForTool(step.tool),
        input: step.input,
        requestId: step.id,
        protocolRequestId: step.id,
        sessionId: 's',
        toolName: step.tool,
        createdAt: new Date().toISOString(),
      });
      expect(parsed.error?.issues ?? []).toEqual([]);
    }
  });

  it('[R10.1][R7.2] asks three questions at once through the runtime path, with root session and innermost origin', async () => {
    server = await startRuntimeTestServer(TOKEN);
    const target = server;
    const lines: string[] = [];
    demo = startDemoAgent({ url: target.url, token: TOKEN, log: (line) => lines.push(line) });
    await vi.waitFor(() => expect(firstAnnounces(target)).toHaveLength(3), { timeout: 5_000 });
    const [design, keys, tests] = firstAnnounces(target);
    expect(design?.input).toMatchObject({
      questions: [{ header: 'Backend' }, { header: 'Invalidation' }, { header: 'Endpoints' }],
    });
    expect(design?.context?.agentMessage).toContain('cache layer');
    expect(keys?.sessionId).toBe(design?.sessionId);
    expect(tests?.sessionId).toBe(design?.sessionId);
    expect(keys?.origin).toMatchObject({ kind: 'subagent', path: ['reviewer'], depth: 1 });
    expect(tests?.origin).toMatchObject({ kind: 'subagent', path: ['reviewer', 'tests'], depth: 2 });

    const requestId = design?.requestId ?? '';
    target.resolve(requestId, {
      requestId,
      response: {
        action: 'accept',
        content: { answers: { 'Which cache backend should the product catalog use?': 'Redis (Recommended)' } },
      },
      resolvedBy: 'user',
      resolvedAt: new Date().toISOString(),
    });
    await vi.waitFor(() => expect(lines.join('\n')).toContain('User answered some questions and skipped 2'));
    await vi.waitFor(() => expect(firstAnnounces(target)).toHaveLength(4));
    expect(expectItem(firstAnnounces(target), 3).input).toMatchObject({ questions: [{ header: 'Admin card' }] });
  });

  it('stop() withdraws pending questions and disconnects', async () => {
    server = await startRuntimeTestServer(TOKEN);
    const target = server;
    demo = startDemoAgent({ url: target.url, token: TOKEN, log: () => undefined });
    await vi.waitFor(() => expect(firstAnnounces(target)).toHaveLength(3));
    await demo.stop();
    demo = undefined;
    await vi.waitFor(() =>
      expect(new Set(target.withdrawals)).toEqual(new Set(firstAnnounces(target).map((r) => r.requestId))),
    );
  });
});

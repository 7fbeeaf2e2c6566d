import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { AGENT_NAMES, errorMessage, type InteractionOrigin } from '../../contracts';
import {
  askUserQuestionTool,
  childSubagentContext,
  executeToolCall,
  type PermissionBrokerPort,
  type ToolDefinition,
  withSubagentInteractionBroker,
} from '../../core';
import { approvalTool, exitPlanModeTool } from '../agent-tools';
import { connectToHost } from '../host-connection';
import { createRuntimeBroker } from '../runtime-broker';
import {
  DEMO_CWD,
  DEMO_STORY,
  type DemoAgentName,
  type DemoStep,
  type DemoToolName,
  simulatedCommandOutput,
} from './story';

export interface DemoAgentOptions {
  url: string;
  token: string;
  log: (line: string) => void;
  /** How many calls wait for an answer at once. */
  concurrency?: number;
  /** Pause before the story starts over, so a demo host never runs dry. */
  restartDelayMs?: number;
  story?: readonly DemoStep[];
  /** Accept the host's self-signed certificate (a host serving HTTPS on loopback). */
  insecureTls?: boolean;
}

export interface DemoAgent {
  /** Withdraws pending questions, disconnects, and resolves when everything has stopped. */
  stop(): Promise<void>;
}

const TOOLS: Record<DemoToolName, ToolDefinition<unknown>> = {
  AskUserQuestion: askUserQuestionTool as ToolDefinition<unknown>,
  ExitPlanMode: exitPlanModeTool as ToolDefinition<unknown>,
  Bash: approvalTool('Bash', (input) => simulatedCommandOutput(String(input.command ?? ''))) as ToolDefinition<unknown>,
};

const SPEAKER: Record<DemoAgentName, string> = {
  root: 'agent',
  reviewer: 'agent › reviewer',
  tests: 'agent › reviewer › tests',
};

interface Agent {
  broker: PermissionBrokerPort;
  sessionId: string;
  origin?: InteractionOrigin;
}

/**
 * The embedded demo agent (R10.1): a scripted coding session whose tool calls take
 * the real runtime path — executor → subagent wrappers → interaction broker →
 * recovery → host connection — exactly as an external runtime would.
 */
export function startDemoAgent(options: DemoAgentOptions): DemoAgent {
  const runId = randomUUID().slice(0, 8);
  const concurrency = Math.max(1, options.concurrency ?? 3);
  const restartDelayMs = options.restartDelayMs ?? 15_000;
  const story = options.story ?? DEMO_STORY;
  const log = options.log;
  const controller = new AbortController();
  const connection = connectToHost({
    url: options.url,
    token: options.token,
    runtimeId: `demo-agent-${runId}`,
    label: 'Askaway demo agent',
    insecureTls: options.insecureTls,
  });
  const broker = createRuntimeBroker(connection);

  const agentsFor = (round: number): Record<DemoAgentName, Agent> => {
    const rootSession = `demo-${runId}-${round}`;
    const reviewer = childSubagentContext(
      { sessionId: rootSession },
      {
        agentId: `reviewer-${round}`,
        agentName: 'reviewer',
        agentType: 'code-reviewer',
        sessionId: `${rootSession}-reviewer`,
      },
    );
    const tests = childSubagentContext(reviewer, {
      agentId: `tests-${round}`,
      agentName: 'tests',
      agentType: 'test-writer',
      sessionId: `${rootSession}-tests`,
    });
    const reviewerBroker = withSubagentInteractionBroker(broker, reviewer);
    return {
      root: {
        broker,
        sessionId: rootSession,
        origin: { kind: 'root', label: 'shop-service agent', path: [], depth: 0, sessionId: rootSession },
      },
      reviewer: { broker: reviewerBroker, sessionId: reviewer.sessionId },
      tests: { broker: withSubagentInteractionBroker(reviewerBroker, tests), sessionId: tests.sessionId },
    };
  };

  const runStep = async (step: DemoStep, agent: Agent, round: number) => {
    const speaker = SPEAKER[step.agent];
    log(`${speaker}: ${step.say}`);
    const result = await executeToolCall({
      tool: TOOLS[step.tool],
      input: step.input,
      sessionId: agent.sessionId,
      turnId: `turn-${round}-${step.id}`,
      toolUseId: `toolu_${runId}_${round}_${step.id}`.replace(/-/g, '_'),
      requestId: `demo-${runId}-${round}-${step.id}`,
      origin: agent.origin,
      agent: { kind: 'demo', name: AGENT_NAMES.demo },
      context: {
        agentMessage: step.say,
        cwd: DEMO_CWD,
        projectName: 'shop-service',
        sessionTitle: 'Add a cache layer to the product catalog',
      },
      broker: agent.broker,
      signal: controller.signal,
    });
    if (controller.signal.aborted) return;
    log(`${speaker} ← ${step.tool} result the model sees: ${result.ok ? result.content : result.error}`);
    log(`${speaker}: ${step.after(result.ok)}`);
  };

  const playRound = async (round: number) => {
    const agents = agentsFor(round);
    const done = new Map<string, Promise<void>>();
    const finish = new Map<string, () => void>();
    for (const step of story) done.set(step.id, new Promise<void>((resolve) => finish.set(step.id, resolve)));
    let next = 0;
    const worker = async () => {
      while (!controller.signal.aborted && next < story.length) {
        const step = story[next++];
        if (!step) break;
        await Promise.all((step.dependsOn ?? []).map((id) => done.get(id)));
        if (controller.signal.aborted) break;
        await runStep(step, agents[step.agent], round);
        finish.get(step.id)?.();
        if (connection.failure) throw connection.failure;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };

  const run = async () => {
    for (let round = 1; !controller.signal.aborted; round += 1) {
      await playRound(round);
      if (controller.signal.aborted) break;
      log(`The session is over; a new one starts in ${Math.round(restartDelayMs / 1000)} s.`);
      await delay(restartDelayMs, undefined, { signal: controller.signal });
    }
  };

  const running = run().catch((error: unknown) => {
    if (controller.signal.aborted) return;
    log(`stopped: ${errorMessage(error)}`);
  });

  return {
    async stop() {
      controller.abort(new Error('demo agent stopped'));
      await running;
      await connection.close();
    },
  };
}

import * as z from 'zod/mini';
import { errorMessage, type AgentRef, type InteractionContext, type InteractionOrigin } from '../contracts';
import { formatIssues, isAbortError } from './format-issues';
import {
  type BrokerResult,
  type PermissionBrokerPort,
  type PermissionDecision,
  type ToolCallResult,
  type ToolDefinition,
  ToolExecutionError,
} from './tool-types';

export interface ExecuteToolCallOptions<Input> {
  readonly tool: ToolDefinition<Input>;
  /** The model's raw arguments. */
  readonly input: unknown;
  readonly sessionId: string;
  readonly turnId?: string;
  readonly toolUseId?: string;
  readonly origin?: InteractionOrigin;
  readonly context?: InteractionContext;
  /** Which agent made the call (R18.1). */
  readonly agent?: AgentRef;
  readonly broker: PermissionBrokerPort;
  readonly signal?: AbortSignal;
  /** Business id of the permission request; a fresh UUID when absent. */
  readonly requestId?: string;
}

const fail = (error: string, recoverable: boolean): ToolCallResult => ({ ok: false, error, recoverable });

/**
 * Runs one tool call: parse → permission → (broker) → handler (R3.1, R3.4).
 * Never throws: every failure, including a throwing broker or handler, becomes
 * `ok: false` with a message the model can read.
 */
export async function executeToolCall<Input>(options: ExecuteToolCallOptions<Input>): Promise<ToolCallResult> {
  const { tool, signal } = options;
  try {
    if (signal?.aborted) return fail(`${tool.name} was aborted`, false);

    const parsed = z.safeParse(tool.inputSchema, options.input);
    if (!parsed.success) return fail(`Invalid input for ${tool.name}: ${formatIssues(parsed.error.issues)}`, true);

    const decision = decide(tool, parsed.data);
    if (decision === 'deny') return fail(`Permission to use ${tool.name} was denied`, true);

    let finalInput: unknown = parsed.data;
    if (decision === 'ask') {
      const outcome = await askBroker(options, parsed.data);
      if (!outcome.ok) return outcome.result;
      if (outcome.result.decision === 'deny') return fail(outcome.result.message, true);
      if (outcome.result.decision === 'modify') finalInput = outcome.result.modifiedInput;
    }

    if (signal?.aborted) return fail(`${tool.name} was aborted`, false);
    return await runHandler(options, finalInput);
  } catch (error) {
    return fail(`${tool.name} failed: ${errorMessage(error)}`, false);
  }
}

function decide<Input>(tool: ToolDefinition<Input>, input: Input): PermissionDecision {
  return tool.checkPermission?.(input) ?? (tool.metadata.needsApproval ? 'ask' : 'allow');
}

type BrokerOutcome = { ok: true; result: BrokerResult } | { ok: false; result: ToolCallResult };

async function askBroker<Input>(options: ExecuteToolCallOptions<Input>, input: Input): Promise<BrokerOutcome> {
  const { tool, broker, signal } = options;
  try {
    const result = await broker.requestPermission(
      {
        requestId: options.requestId ?? globalThis.crypto.randomUUID(),
        sessionId: options.sessionId,
        turnId: options.turnId,
        toolName: tool.name,
        toolUseId: options.toolUseId,
        input,
        origin: options.origin,
        context: options.context,
        agent: options.agent,
      },
      { signal },
    );
    return { ok: true, result };
  } catch (error) {
    if (signal?.aborted || isAbortError(error)) return { ok: false, result: fail(`${tool.name} was aborted`, false) };
    return {
      ok: false,
      result: fail(`Could not get the user's decision for ${tool.name}: ${errorMessage(error)}`, true),
    };
  }
}

async function runHandler<Input>(options: ExecuteToolCallOptions<Input>, input: unknown): Promise<ToolCallResult> {
  const { tool } = options;
  try {
    const output = await tool.handler(input, {
      sessionId: options.sessionId,
      turnId: options.turnId,
      toolUseId: options.toolUseId,
      signal: options.signal,
    });
    return { ok: true, content: output.content, input: 'input' in output ? output.input : input };
  } catch (error) {
    if (error instanceof ToolExecutionError) return fail(error.message, error.recoverable);
    return fail(`${tool.name} failed: ${errorMessage(error)}`, false);
  }
}

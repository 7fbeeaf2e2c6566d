import type * as z from 'zod/mini';
import { type AgentRef, type InputRules, type InteractionContext, type InteractionOrigin } from '../contracts';

/** What a tool is allowed to do and how it must be approved (R1.3). */
export interface ToolMetadata {
  readonly readOnly: boolean;
  readonly concurrentSafe: boolean;
  readonly sideEffectScope: 'none' | 'filesystem' | 'network' | 'process' | 'userInteraction';
  readonly needsApproval: boolean;
  readonly requiresUserInteraction: boolean;
  readonly riskLevel: 'low' | 'medium' | 'high';
  readonly permissionKey: string;
  readonly approvalReason: string;
}

export type PermissionDecision = 'allow' | 'ask' | 'deny';

/** Where a handler runs: the call's identity and its cancellation. */
export interface ToolContext {
  readonly sessionId: string;
  readonly turnId?: string;
  readonly toolUseId?: string;
  readonly signal?: AbortSignal;
}

/** What a handler produces: the text the model sees and the input it ran with. */
export interface ToolHandlerOutput {
  readonly content: string;
  readonly input?: unknown;
}

/**
 * A tool the executor can run. `inputSchema` (any zod schema, mini or classic) parses what the model sends. The
 * handler receives the final input: the parsed model input, or a broker's
 * `modifiedInput`, which is untrusted — a handler validates what it runs with,
 * which is where AskUserQuestion's two-phase gate lives (R3.5).
 */
export interface ToolDefinition<Input = unknown> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: z.core.$ZodType<Input>;
  readonly metadata: ToolMetadata;
  /** Defaults to 'ask' when `metadata.needsApproval`, else 'allow'. */
  checkPermission?(input: Input): PermissionDecision;
  handler(input: unknown, context: ToolContext): Promise<ToolHandlerOutput> | ToolHandlerOutput;
}

/** A request for the user's decision on one tool call (R3.1). */
export interface PermissionRequest {
  /** Business id: stays the same across re-announces (R8.1). */
  readonly requestId: string;
  readonly sessionId: string;
  readonly turnId?: string;
  readonly toolName: string;
  readonly toolUseId?: string;
  readonly input: unknown;
  readonly origin?: InteractionOrigin;
  readonly context?: InteractionContext;
  /** A question's contract: Askaway's strict one unless it came through Claude Code's hook (R11.2). */
  readonly inputRules?: InputRules;
  /** Which agent asks (R18.1): Claude Code, an MCP client, `askaway ask`, the demo. */
  readonly agent?: AgentRef;
}

/** The broker's answer (R3.4, R3.6). */
export type BrokerResult =
  | { readonly decision: 'allow' }
  | { readonly decision: 'deny'; readonly message: string }
  | { readonly decision: 'modify'; readonly modifiedInput: unknown; readonly resolvedAt: Date };

/** The port a permission broker implements; rejects when `signal` aborts. */
export interface PermissionBrokerPort {
  requestPermission(request: PermissionRequest, options?: { signal?: AbortSignal }): Promise<BrokerResult>;
}

/** What the model gets back from one tool call. */
export type ToolCallResult =
  | { readonly ok: true; readonly content: string; readonly input: unknown }
  | { readonly ok: false; readonly error: string; readonly recoverable: boolean };

/** Thrown by a handler to fail the call with a message the model sees. */
export class ToolExecutionError extends Error {
  readonly recoverable: boolean;

  constructor(message: string, options: { recoverable?: boolean; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ToolExecutionError';
    this.recoverable = options.recoverable ?? true;
  }
}

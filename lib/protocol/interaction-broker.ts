import {
  ApprovalInputSchema,
  AskUserQuestionInputSchema,
  ClaudeCodeAskUserQuestionInputSchema,
  FinishedTurnInputSchema,
  FormInputSchema,
  isAgentRules,
  type AgentRef,
  type InputRules,
  type InteractionContext,
  type InteractionOrigin,
  DECLINE_MESSAGE_MAX,
  errorMessage,
  type InteractionRequest,
  InteractionRequestSchema,
  type InteractionResolution,
  MAX_MESSAGE_BYTES,
  PermissionInputSchema,
  PlanApprovalInputSchema,
  interactionKindForTool,
  type InteractionKind,
} from '../contracts';
import { formatIssues } from '../core/format-issues';
import { safeParseHot } from '../core/hot-parse';
import { type BrokerResult, type PermissionBrokerPort, type PermissionRequest } from '../core/tool-types';
import {
  INTERACTION_REQUEST_REANNOUNCE_INTERVAL_MS,
  FatalInteractionError,
  withInteractionRequestRecovery,
} from './request-recovery';
import { responseToBrokerResult } from './response-to-broker-result';

/**
 * How a broker reaches the host. `announce` resolves with the winning resolution
 * of `request.requestId` (in the ack or a later notice), checked against
 * InteractionResolutionSchema where it arrived (R10.4), and stops waiting when
 * `signal` aborts; it is called again every second with a fresh protocolRequestId
 * while the request is pending (R8.1). `withdraw` ends an interaction nobody needs
 * any more (the tool call was aborted).
 */
export interface InteractionTransport {
  announce(request: InteractionRequest, signal: AbortSignal): Promise<InteractionResolution>;
  withdraw(requestId: string, reason?: string): Promise<void>;
}

export interface CreateInteractionBrokerOptions {
  transport: InteractionTransport;
  now?: () => Date;
  /** Protocol ids for each (re-)announce; defaults to random UUIDs. */
  newId?: () => string;
  reannounceIntervalMs?: number;
}

/** The interaction could not be built from the permission request (bad input for its kind). */
export class InvalidInteractionRequestError extends FatalInteractionError {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidInteractionRequestError';
  }
}

/** Room for socket.io's framing (event name, ack id) around the announced request. */
const ENVELOPE_BYTES = 1_024;
const MAX_REQUEST_BYTES = MAX_MESSAGE_BYTES - ENVELOPE_BYTES;

const INPUT_SCHEMAS = {
  question: AskUserQuestionInputSchema,
  'plan-approval': PlanApprovalInputSchema,
  permission: PermissionInputSchema,
  approval: ApprovalInputSchema,
  form: FormInputSchema,
  'finished-turn': FinishedTurnInputSchema,
} as const satisfies Record<InteractionKind, unknown>;

/** The input schema for a kind; a question from an agent's own tool follows that agent's rules (R11.2). */
function inputSchemaFor(kind: InteractionKind, rules: InputRules | undefined) {
  return kind === 'question' && isAgentRules(rules) ? ClaudeCodeAskUserQuestionInputSchema : INPUT_SCHEMAS[kind];
}

/** The announced request for a permission request (R3.2). Throws InvalidInteractionRequestError. */
export function buildInteractionRequest(request: PermissionRequest, createdAt: Date): InteractionRequest {
  return checkedRequest(request, interactionKindForTool(request.toolName), createdAt);
}

/** An interaction of `kind` for `request`, checked against the contract and the message size. */
function checkedRequest(
  request: Omit<DirectInteractionRequest, 'kind'> & { turnId?: string },
  kind: InteractionKind,
  createdAt: Date,
): InteractionRequest {
  const rules = kind === 'question' && isAgentRules(request.inputRules) ? request.inputRules : undefined;
  const candidate = {
    kind,
    ...(rules !== undefined ? { inputRules: rules } : {}),
    input: request.input,
    requestId: request.requestId,
    protocolRequestId: request.requestId,
    sessionId: request.sessionId,
    agent: request.agent,
    origin: request.origin,
    toolName: request.toolName,
    toolUseId: request.toolUseId,
    context: request.context,
    createdAt: createdAt.toISOString(),
  };
  // One pass checks the input with the rest; only a failure looks at the input alone, to name it as such.
  const parsed = safeParseHot(InteractionRequestSchema, candidate);
  if (!parsed.success) {
    const input = inputSchemaFor(kind, request.inputRules).safeParse(request.input);
    throw new InvalidInteractionRequestError(
      input.success
        ? `Invalid interaction request for ${request.toolName}: ${formatIssues(parsed.error.issues)}`
        : `Invalid ${kind} input for ${request.toolName}: ${formatIssues(input.error.issues)}`,
    );
  }
  // Each field can be within its limit while the whole is not (previews, multi-byte text). The host
  // drops a connection that sends more than MAX_MESSAGE_BYTES, so re-announcing would loop forever.
  const json = JSON.stringify(parsed.data);
  // A UTF-16 code unit is at most 3 bytes of UTF-8: most requests need no encoding to know they fit.
  const bytes = json.length * 3 <= MAX_REQUEST_BYTES ? json.length : new TextEncoder().encode(json).length;
  if (bytes > MAX_REQUEST_BYTES) {
    throw new InvalidInteractionRequestError(
      `${request.toolName} input is too large to send (${bytes} bytes, at most ${MAX_REQUEST_BYTES}): shorten previews or text`,
    );
  }
  return parsed.data;
}

// Best effort and not awaited: an unreachable host must not keep an aborted
// tool call waiting.
function withdrawQuietly(transport: InteractionTransport, requestId: string, reason: string): void {
  try {
    transport.withdraw(requestId, reason).catch(() => undefined);
  } catch {
    // A transport that throws synchronously is as unreachable as one that rejects.
  }
}

/**
 * An interaction whose kind its runtime says (R18.1–R18.4): an agent's own question, approval or form,
 * which a bridge answers in that agent's format from the resolution itself.
 */
export interface DirectInteractionRequest {
  readonly kind: InteractionKind;
  readonly inputRules?: InputRules;
  readonly input: unknown;
  readonly requestId: string;
  readonly sessionId: string;
  readonly toolName: string;
  readonly toolUseId?: string;
  readonly agent?: AgentRef;
  readonly origin?: InteractionOrigin;
  readonly context?: InteractionContext;
}

/** The broker of tool calls (`requestPermission`) and of agents' own prompts (`requestInteraction`). */
export interface InteractionBroker extends PermissionBrokerPort {
  /** Announces, re-announces until answered (R8.1) and withdraws on abort, like requestPermission; resolves with the winning resolution. */
  requestInteraction(
    request: DirectInteractionRequest,
    options?: { signal?: AbortSignal },
  ): Promise<InteractionResolution>;
}

/**
 * The protocol-level broker (R3.2–R3.7, R8.1, R8.3): announces the interaction,
 * re-announces it until a resolution wins, and maps that resolution to a
 * BrokerResult. Aborting the caller's signal withdraws the interaction and rejects.
 */
export function createInteractionBroker(options: CreateInteractionBrokerOptions): InteractionBroker {
  const now = options.now ?? (() => new Date());
  const { transport } = options;

  const untilResolved = async (interaction: InteractionRequest, signal: AbortSignal | undefined) => {
    const send = async (protocolRequestId: string, attemptSignal: AbortSignal) => {
      const resolution = await transport.announce({ ...interaction, protocolRequestId }, attemptSignal);
      // A foreign resolution is treated like a lost message: keep re-announcing.
      if (resolution.requestId !== interaction.requestId) throw new Error('Resolution for another request');
      return resolution;
    };
    try {
      return await withInteractionRequestRecovery(send, {
        intervalMs: options.reannounceIntervalMs ?? INTERACTION_REQUEST_REANNOUNCE_INTERVAL_MS,
        signal,
        newProtocolRequestId: options.newId,
      });
    } catch (error) {
      const reason = signal?.aborted ? 'The tool call was aborted' : errorMessage(error);
      withdrawQuietly(transport, interaction.requestId, reason.slice(0, DECLINE_MESSAGE_MAX));
      throw error;
    }
  };

  return {
    async requestPermission(request, callOptions): Promise<BrokerResult> {
      const interaction = buildInteractionRequest(request, now());
      const resolution = await untilResolved(interaction, callOptions?.signal);
      return responseToBrokerResult(interaction.kind, interaction.input, resolution.response, now());
    },
    requestInteraction(request, callOptions) {
      return untilResolved(checkedRequest({ ...request }, request.kind, now()), callOptions?.signal);
    },
  };
}

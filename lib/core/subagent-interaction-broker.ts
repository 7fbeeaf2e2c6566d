import { ID_MAX, type InteractionOrigin } from '../contracts';
import { type PermissionBrokerPort } from './tool-types';

/** Who a subagent is and where it sits under the root session (R7.1). */
export interface SubagentContext {
  /** The session whose UI answers this subagent's questions (its direct parent's). */
  readonly parentSessionId: string;
  readonly agentId: string;
  readonly agentName: string;
  readonly agentType?: string;
  /** The subagent's own session. */
  readonly sessionId: string;
  /** 1 = a direct child of the root agent. */
  readonly depth: number;
  /** Agent names from the root's child down to this agent. */
  readonly path: readonly string[];
}

export interface SubagentIdentity {
  readonly agentId: string;
  readonly agentName: string;
  readonly agentType?: string;
  readonly sessionId: string;
}

export const ORIGIN_LABEL_SEPARATOR = ' › ';

// Limits of InteractionOriginSchema: an origin that would fail validation must
// not stop a question from reaching the user, so it is clamped instead.
const MAX_PATH = 16;
const MAX_NAME = 80;

const clamp = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const nonEmpty = (text: string | undefined) => (text ? text : undefined);

/** A child's context under a subagent or under the root (`{sessionId}` of the root session). */
export function childSubagentContext(
  parent: SubagentContext | { readonly sessionId: string },
  child: SubagentIdentity,
): SubagentContext {
  const isSubagent = 'path' in parent;
  const parentPath = isSubagent ? parent.path : [];
  const parentDepth = isSubagent ? parent.depth : 0;
  return {
    parentSessionId: parent.sessionId,
    agentId: child.agentId,
    agentName: child.agentName,
    agentType: child.agentType,
    sessionId: child.sessionId,
    depth: parentDepth + 1,
    path: [...parentPath, child.agentName],
  };
}

/** The origin shown on a subagent's question: which subagent asked, under whom (R7.3). */
export function buildSubagentInteractionOrigin(context: SubagentContext, turnId?: string): InteractionOrigin {
  const names = context.path.length > 0 ? context.path : [context.agentName || 'subagent'];
  const path = names.slice(-MAX_PATH).map((name) => clamp(name, MAX_NAME));
  const origin: InteractionOrigin = {
    kind: 'subagent',
    label: clamp(names.join(ORIGIN_LABEL_SEPARATOR), ID_MAX),
    path,
    depth: Math.min(Math.max(context.depth, 1), MAX_PATH),
  };
  const agentId = nonEmpty(context.agentId);
  const agentType = nonEmpty(context.agentType);
  const sessionId = nonEmpty(context.sessionId);
  const parentSessionId = nonEmpty(context.parentSessionId);
  const turn = nonEmpty(turnId);
  if (agentId !== undefined) origin.agentId = clamp(agentId, ID_MAX);
  if (agentType !== undefined) origin.agentType = clamp(agentType, ID_MAX);
  if (sessionId !== undefined) origin.sessionId = clamp(sessionId, ID_MAX);
  if (parentSessionId !== undefined) origin.parentSessionId = clamp(parentSessionId, ID_MAX);
  if (turn !== undefined) origin.turnId = clamp(turn, ID_MAX);
  return origin;
}

/**
 * Routes a subagent's interactions to its parent session (R7.1). Wrappers stack
 * (R7.2): each rewrites `sessionId`, so the outermost (the root's) wins, while
 * `origin` is only set when absent, so the innermost (the real asker) wins.
 */
export function withSubagentInteractionBroker(
  parent: PermissionBrokerPort,
  context: SubagentContext,
): PermissionBrokerPort {
  return {
    requestPermission(request, options) {
      return parent.requestPermission(
        {
          ...request,
          sessionId: context.parentSessionId,
          origin: request.origin ?? buildSubagentInteractionOrigin(context, request.turnId),
        },
        options,
      );
    },
  };
}

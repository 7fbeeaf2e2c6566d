import { ASK_USER_QUESTION_TOOL_NAME, type InteractionKind } from '../contracts';

/** Tool name of plan approval (R3.2). */
export const EXIT_PLAN_MODE_TOOL_NAME = 'ExitPlanMode';

/** R3.2: the broker dispatches by tool name. */
export function interactionKindForTool(toolName: string): InteractionKind {
  if (toolName === ASK_USER_QUESTION_TOOL_NAME) return 'question';
  if (toolName === EXIT_PLAN_MODE_TOOL_NAME) return 'plan-approval';
  return 'permission';
}

/**
 * R3.3: an Allow/Deny prompt cannot carry answers (or plan feedback) back into the
 * tool input, so for these tools only the elicitation request reaches remotes.
 */
export function shouldProjectAsPermissionPrompt(toolName: string): boolean {
  return interactionKindForTool(toolName) === 'permission';
}

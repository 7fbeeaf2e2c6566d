import { z } from 'zod';
import { EXIT_PLAN_MODE_TOOL_NAME, isRecord, PLAN_MAX, PermissionInputSchema } from '../contracts';
import { type ToolDefinition, type ToolMetadata } from '../core/tool-types';

const APPROVAL_METADATA: Omit<ToolMetadata, 'permissionKey' | 'approvalReason'> = {
  readOnly: false,
  concurrentSafe: false,
  sideEffectScope: 'process',
  needsApproval: true,
  requiresUserInteraction: true,
  riskLevel: 'medium',
};

const ExitPlanModeInputSchema = z.object({ plan: z.string().min(1).max(PLAN_MAX) }).passthrough();

/** ExitPlanMode as a runtime sees it: the broker turns the call into a plan approval (R3.2). */
export const exitPlanModeTool: ToolDefinition<z.infer<typeof ExitPlanModeInputSchema>> = {
  name: EXIT_PLAN_MODE_TOOL_NAME,
  description: 'Present the plan to the user for approval and leave plan mode.',
  inputSchema: ExitPlanModeInputSchema,
  metadata: {
    ...APPROVAL_METADATA,
    sideEffectScope: 'none',
    riskLevel: 'low',
    permissionKey: 'plan.exit',
    approvalReason: "the plan needs the user's approval",
  },
  handler: () => ({ content: 'User has approved your plan. You can now start coding.' }),
};

/**
 * Any other tool whose call needs an ordinary allow/deny (R3.2). `run` produces
 * the result once allowed; the default just reports the approval.
 */
export function approvalTool(
  name: string,
  run: (input: Record<string, unknown>) => string = () => `${name} was allowed by the user.`,
): ToolDefinition<Record<string, unknown>> {
  return {
    name,
    description: `${name} (requires the user's approval)`,
    inputSchema: PermissionInputSchema,
    metadata: { ...APPROVAL_METADATA, permissionKey: `tool.${name}`, approvalReason: `runs ${name}` },
    handler: (input) => ({
      content: run(isRecord(input) ? input : {}),
    }),
  };
}

import {
  ASK_USER_QUESTION_TOOL_NAME,
  type AskUserQuestionAnsweredInput,
  AskUserQuestionAnsweredInputSchema,
  type AskUserQuestionInput,
  AskUserQuestionInputSchema,
} from '../contracts';
import { ASK_USER_QUESTION_DESCRIPTION } from './ask-user-question-description';
import { formatIssues } from './format-issues';
import { formatModelContent } from './format-model-content';
import { type ToolDefinition, ToolExecutionError, type ToolHandlerOutput, type ToolMetadata } from './tool-types';

/** R3.5: the recoverable error when the handler is reached before anyone answered. */
export const ANSWERS_REQUIRED_ERROR = 'AskUserQuestion requires user answers before execution';

/** R1.3. No other tool has the `userInteraction` side-effect scope. */
export const ASK_USER_QUESTION_METADATA: ToolMetadata = Object.freeze({
  readOnly: true,
  concurrentSafe: true,
  sideEffectScope: 'userInteraction',
  needsApproval: true,
  requiresUserInteraction: true,
  riskLevel: 'low',
  permissionKey: 'userInteraction.askQuestion',
  approvalReason: 'pauses execution to collect answers from the user',
});

/**
 * The second phase's gate (R3.5): only the answered schema passes, so the handler
 * never runs before the permission phase collected answers (`{}` counts).
 */
export function parseAnsweredInput(input: unknown): AskUserQuestionAnsweredInput {
  const parsed = AskUserQuestionAnsweredInputSchema.safeParse(input);
  if (parsed.success && parsed.data.answers !== undefined) {
    return { ...parsed.data, answers: parsed.data.answers };
  }
  const issues = parsed.success ? [] : parsed.error.issues;
  const answersMissing =
    issues.length === 0 || issues.some((issue) => issue.path.length === 1 && issue.path[0] === 'answers');
  if (answersMissing) throw new ToolExecutionError(ANSWERS_REQUIRED_ERROR, { recoverable: true });
  throw new ToolExecutionError(`Invalid answered input for AskUserQuestion: ${formatIssues(issues)}`, {
    recoverable: true,
  });
}

export const askUserQuestionTool: ToolDefinition<AskUserQuestionInput> = {
  name: ASK_USER_QUESTION_TOOL_NAME,
  description: ASK_USER_QUESTION_DESCRIPTION,
  inputSchema: AskUserQuestionInputSchema,
  metadata: ASK_USER_QUESTION_METADATA,
  // needsApproval: the permission check is the question gate (R3.1).
  checkPermission: () => 'ask',
  handler(input: unknown): ToolHandlerOutput {
    const answered = parseAnsweredInput(input);
    return { content: formatModelContent(answered), input: answered };
  },
};

import { DECLINE_MESSAGE_MAX, type AskUserQuestionInput, type InteractionKind } from '../contracts';
import { type BrokerResult } from '../core/tool-types';
import { normalizeAskUserQuestionResponseContent } from './normalize-answers';

/** A response as the broker passes it on, after parsing the host's resolution. */
export interface UserInputResponseLike {
  action: 'accept' | 'decline' | 'cancel' | (string & {});
  content?: unknown;
  message?: string;
}

export const ASK_USER_QUESTION_DECLINED = 'AskUserQuestion was declined';
export const ASK_USER_QUESTION_CANCELLED = 'AskUserQuestion was cancelled';
export const PLAN_REJECTED = 'The user rejected the plan';
export const PLAN_APPROVAL_CANCELLED = 'Plan approval was cancelled; stay in plan mode';
export const PERMISSION_DENIED = 'The user denied this tool call';
export const PERMISSION_CANCELLED = 'The permission request was cancelled';

/** The user's reason, if any, as one trimmed, bounded sentence. */
function reasonOf(response: UserInputResponseLike): string | undefined {
  const message = response.message?.trim() ?? '';
  return message === '' ? undefined : message.slice(0, DECLINE_MESSAGE_MAX);
}

const withReason = (base: string, reason: string | undefined) => (reason ? `${base}: ${reason}` : base);

/**
 * R3.4, R3.6, R3.7: accept → modify with the normalized answers merged into the
 * input; decline → deny with the user's reason; anything else → cancelled.
 */
export function userInputResponseToBrokerResult(
  input: AskUserQuestionInput,
  response: UserInputResponseLike,
  now: Date = new Date(),
): BrokerResult {
  const { action } = response;
  if (action === 'accept') {
    const normalized = normalizeAskUserQuestionResponseContent(input, response.content);
    return { decision: 'modify', modifiedInput: { ...input, ...normalized }, resolvedAt: now };
  }
  if (action === 'decline')
    return { decision: 'deny', message: withReason(ASK_USER_QUESTION_DECLINED, reasonOf(response)) };
  return { decision: 'deny', message: ASK_USER_QUESTION_CANCELLED };
}

/** ExitPlanMode: accept → allow; decline → deny carrying the user's feedback on the plan. */
export function planApprovalResponseToBrokerResult(response: UserInputResponseLike): BrokerResult {
  const { action } = response;
  if (action === 'accept') return { decision: 'allow' };
  if (action === 'decline') {
    const feedback = reasonOf(response);
    return {
      decision: 'deny',
      message: feedback
        ? `${PLAN_REJECTED}: ${feedback}`
        : `${PLAN_REJECTED}. Stay in plan mode and ask what should change.`,
    };
  }
  return { decision: 'deny', message: PLAN_APPROVAL_CANCELLED };
}

/** Any other tool: accept → allow; decline → deny with the user's reason. */
export function permissionResponseToBrokerResult(response: UserInputResponseLike): BrokerResult {
  const { action } = response;
  if (action === 'accept') return { decision: 'allow' };
  if (action === 'decline') return { decision: 'deny', message: withReason(PERMISSION_DENIED, reasonOf(response)) };
  return { decision: 'deny', message: PERMISSION_CANCELLED };
}

/** Dispatch by interaction kind (R3.2). `input` is the announced (parsed) input. */
export function responseToBrokerResult(
  kind: InteractionKind,
  input: unknown,
  response: UserInputResponseLike,
  now: Date = new Date(),
): BrokerResult {
  switch (kind) {
    case 'question':
      return userInputResponseToBrokerResult(input as AskUserQuestionInput, response, now);
    case 'plan-approval':
      return planApprovalResponseToBrokerResult(response);
    case 'permission':
    // A bridge reads an approval's choice or a form's values from the resolution itself (requestInteraction);
    // as a tool call's result either is an allow or a deny.
    case 'approval':
    case 'form':
    // A finished turn is no tool call: its runtime reads the reply from the resolution (R19.4).
    case 'finished-turn':
      return permissionResponseToBrokerResult(response);
    default: {
      const unknownKind: never = kind;
      return { decision: 'deny', message: `Unknown interaction kind: ${String(unknownKind)}` };
    }
  }
}

import { type InteractionResponse } from '../../contracts';
import { type RespondAudit } from '../registry';
import { answerAction, questionTarget, type AuditTrail } from './audit-trail';

/**
 * A device's answer as the record has it (R21.61, R21.62): the answer in its own commit, and an attempt on another
 * person's question as refused, with the question's id, while the device is told only that no such question exists.
 */
export function respondAudit(
  trail: AuditTrail,
  by: { deviceId: string; address?: string; via: 'app' | 'notification' },
  response: InteractionResponse,
  now: () => Date = () => new Date(),
): RespondAudit {
  return {
    answered: (view, resolution) => trail.answered(by, view, resolution),
    refused: (view) =>
      trail.refused(
        by.deviceId,
        {
          action: answerAction(response),
          actor: trail.actor(by),
          target: questionTarget(view),
          detail: "not this person's question",
        },
        now().toISOString(),
      ),
  };
}

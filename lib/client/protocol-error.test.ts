import { describe, expect, it } from 'vitest';
import { PreferencesAckSchema, RespondCommandSchema } from '../contracts';
import { describeIssues, formatProtocolError } from './protocol-error';

// The phone bundle loads no zod locale: every issue's message is "Invalid input", so the
// rule must come from the issue itself.
describe('naming the rule a host message broke', () => {
  it('[R10.4] names the path and the rule, without a zod locale', () => {
    const parsed = RespondCommandSchema.safeParse({
      requestId: 'q1',
      clientResponseId: 'a1',
      response: { action: 'accept', content: { answers: { Q: 'x'.repeat(2_001) } }, extra: 1 },
    });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(describeIssues(parsed.error.issues)).toBe(
      'response.content.answers.Q: too big (at most 2000); response: unexpected key extra',
    );
  });

  it('[R10.4] a union is explained by the variant that came closest', () => {
    const parsed = PreferencesAckSchema.safeParse({
      ok: true,
      preferences: { askUserQuestionAutoResolutionEnabled: 1 },
    });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(describeIssues(parsed.error.issues)).toMatch(
      /^preferences\.askUserQuestionAutoResolutionEnabled: expected boolean/,
    );
  });

  it('[R10.4] the log line names the message or the command replied to', () => {
    expect(formatProtocolError({ event: 'events', reply: false, rule: '(root): expected object' })).toBe(
      "askaway: the host sent a malformed 'events' message: (root): expected object",
    );
    expect(formatProtocolError({ event: 'respond', reply: true, rule: 'status: expected one of accepted' })).toBe(
      "askaway: the host sent a malformed reply to 'respond': status: expected one of accepted",
    );
  });
});

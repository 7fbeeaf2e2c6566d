// Claude Code's answer forms, zod-free: the card builds answers with them before the schemas load (R13.4).

/** `inputRules` of an interaction whose input follows Claude Code's rules, not Askaway's strict contract (R11.2). */
export const CLAUDE_CODE_INPUT_RULES = 'claude-code';

/**
 * Claude Code's join of a multi-select answer (R2.9 on the hook path): labels
 * joined with ", ", a label that itself holds ", " or `"` written as a JSON
 * string. Claude Code 2.1.332 reads an answer in exactly this form as the chosen
 * options ("Your questions have been answered"); any other form reads as free
 * text the model is told to read carefully.
 */
export function joinClaudeCodeLabels(labels: readonly string[]): string {
  return labels
    .map((label) => (label.includes(', ') || label.includes('"') ? JSON.stringify(label) : label))
    .join(', ');
}

/** A number answer as Claude Code reads it: a plain decimal, no exponent, no sign but "-". */
export const CLAUDE_CODE_NUMBER_ANSWER = /^-?\d+(\.\d+)?$/;

/** What the person typed as a number answer in Claude Code's form ("0.50" stays, ".5" → "0.5"), or null. */
export function normalizeNumberAnswer(raw: string): string | null {
  const value = raw.trim().replace(/^\+/, '');
  if (CLAUDE_CODE_NUMBER_ANSWER.test(value)) return value;
  if (value === '' || !/^-?(\d+\.?\d*|\.\d+)$/.test(value)) return null;
  const number = Number(value);
  if (!Number.isFinite(number)) return null;
  const plain = String(number);
  return CLAUDE_CODE_NUMBER_ANSWER.test(plain) ? plain : null;
}

/** Why a number question's answer is refused, or null: it must be a plain decimal within min..max. */
export function numberAnswerProblem(answer: string, question: { min?: number; max?: number }): string | null {
  const value = answer.trim();
  if (!CLAUDE_CODE_NUMBER_ANSWER.test(value) || !Number.isFinite(Number(value))) {
    return 'The answer to a number question must be a number such as 12 or -3.5';
  }
  const number = Number(value);
  if ((question.min !== undefined && number < question.min) || (question.max !== undefined && number > question.max)) {
    return `The answer must lie between ${question.min ?? '-∞'} and ${question.max ?? '∞'}`;
  }
  return null;
}

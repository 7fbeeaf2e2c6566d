// Claude Code's answer forms, zod-free: the card builds answers with them before the schemas load (R13.4).

/** `inputRules` of an interaction whose input follows Claude Code's rules, not Askaway's strict contract (R11.2). */
export const CLAUDE_CODE_INPUT_RULES = 'claude-code';
/** The same lenient rules for another agent's own question tool (Codex's request_user_input, OpenCode's question). */
export const AGENT_INPUT_RULES = 'agent';

/** True for a question under an agent's own rules (Claude Code's, or another agent's), not Askaway's strict ones. */
export function isAgentRules(rules: string | undefined): boolean {
  return rules === CLAUDE_CODE_INPUT_RULES || rules === AGENT_INPUT_RULES;
}

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

/**
 * The labels a joined multi-select answer holds (joinClaudeCodeLabels, read back), or null when it is not
 * in that form: a bridge for an agent that wants a list of labels (Codex, OpenCode) sends them apart.
 */
export function splitClaudeCodeLabels(answer: string): string[] | null {
  const labels: string[] = [];
  let rest = answer;
  while (rest.length > 0) {
    if (rest.startsWith('"')) {
      const end = /^"(?:[^"\\]|\\.)*"/.exec(rest);
      if (!end) return null;
      try {
        labels.push(JSON.parse(end[0]) as string);
      } catch {
        return null;
      }
      rest = rest.slice(end[0].length);
    } else {
      const comma = rest.indexOf(', ');
      labels.push(comma < 0 ? rest : rest.slice(0, comma));
      rest = comma < 0 ? '' : rest.slice(comma);
    }
    if (rest.startsWith(', ')) rest = rest.slice(2);
    else if (rest.length > 0) return null;
  }
  return labels;
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

import * as z from 'zod/mini';
import {
  ASK_USER_QUESTION_MAX_OPTIONS,
  ASK_USER_QUESTION_MAX_QUESTIONS,
  ASK_USER_QUESTION_MIN_OPTIONS,
  ASK_USER_QUESTION_MIN_QUESTIONS,
  AskUserQuestionMetadataSchema,
  AskUserQuestionPreviewSchema,
  nonBlank,
} from './ask-user-question';
import { ASK_USER_QUESTION_MAX_TEXT } from './limits';

export {
  AGENT_INPUT_RULES,
  CLAUDE_CODE_INPUT_RULES,
  isAgentRules,
  CLAUDE_CODE_NUMBER_ANSWER,
  joinClaudeCodeLabels,
  splitClaudeCodeLabels,
  normalizeNumberAnswer,
  numberAnswerProblem,
} from './claude-code-answers';

/**
 * Claude Code's own AskUserQuestion, as it reaches the hook (R11.2, R11.5). Askaway's
 * strict contract (ask-user-question.ts) stays for its MCP tool, where the model
 * can fix a refused call; on the hook path the call was already accepted by Claude
 * Code, so the phone must accept what Claude Code accepts — a header longer than
 * 12 characters, an empty option description, an option labelled "Other", and the
 * extended kinds SDK hosts can turn on (`kind: "text" | "number"`, `title`, a
 * question `description`). Every string and list stays bounded (R12.3); question
 * texts and labels must not be blank, because answers are keyed by the one and
 * carry the other. The answer forms (joined labels, numbers) are in claude-code-answers.ts.
 */
export const CLAUDE_CODE_HEADER_MAX = 200;
export const CLAUDE_CODE_TITLE_MAX = 200;
export const CLAUDE_CODE_LABEL_MAX = 200;
export const CLAUDE_CODE_PLACEHOLDER_MAX = 200;
export const CLAUDE_CODE_UNIT_MAX = 40;

/** How the person answers: pick options (the default), type text, or give a number in a range. */
export const ClaudeCodeQuestionKindSchema = z.enum(['choice', 'text', 'number']);
export type ClaudeCodeQuestionKind = z.infer<typeof ClaudeCodeQuestionKindSchema>;

const text = (max: number) => z.string().check(z.maxLength(max));

export const ClaudeCodeQuestionOptionSchema = z.strictObject({
  label: nonBlank(CLAUDE_CODE_LABEL_MAX),
  /** Optional, and may be empty: Claude Code asks for it only when the label alone is ambiguous. */
  description: z.optional(text(ASK_USER_QUESTION_MAX_TEXT)),
  preview: z.optional(AskUserQuestionPreviewSchema),
});
export type ClaudeCodeQuestionOption = z.infer<typeof ClaudeCodeQuestionOptionSchema>;

/** Fields that belong to one kind only, as Claude Code checks them. */
const KIND_ONLY_FIELDS = [
  ['placeholder', 'text'],
  ['min', 'number'],
  ['max', 'number'],
  ['step', 'number'],
  ['defaultValue', 'number'],
  ['unit', 'number'],
] as const;

export const ClaudeCodeQuestionSchema = z
  .strictObject({
    question: nonBlank(ASK_USER_QUESTION_MAX_TEXT),
    /** Shown as a chip; may be empty or longer than the strict contract's 12 characters. */
    header: text(CLAUDE_CODE_HEADER_MAX),
    kind: z.optional(ClaudeCodeQuestionKindSchema),
    /** One helper line under the question. */
    description: z.optional(text(ASK_USER_QUESTION_MAX_TEXT)),
    options: z._default(z.array(ClaudeCodeQuestionOptionSchema).check(z.maxLength(ASK_USER_QUESTION_MAX_OPTIONS)), []),
    multiSelect: z._default(z.boolean(), false),
    placeholder: z.optional(text(CLAUDE_CODE_PLACEHOLDER_MAX)),
    min: z.optional(z.number()),
    max: z.optional(z.number()),
    step: z.optional(z.number().check(z.positive())),
    defaultValue: z.optional(z.number()),
    unit: z.optional(text(CLAUDE_CODE_UNIT_MAX)),
    /**
     * The answer is a secret (Codex's `isSecret`, R18.5): typed into a masked field, and never shown in
     * history, receipts, notifications or the host's log.
     */
    secret: z.optional(z.boolean()),
    /** False when the agent takes only its options, no typed answer (Codex's `isOther: false`). Default true. */
    allowOther: z.optional(z.boolean()),
  })
  .check(
    z.superRefine((question, ctx) => {
      const kind = question.kind ?? 'choice';
      for (const [field, owner] of KIND_ONLY_FIELDS) {
        if (kind !== owner && question[field] !== undefined) {
          ctx.addIssue({ code: 'custom', path: [field], message: `${field} applies only to "${owner}" questions` });
        }
      }
      const seen = new Set<string>();
      question.options.forEach((option, index) => {
        if (seen.has(option.label)) {
          ctx.addIssue({
            code: 'custom',
            path: ['options', index, 'label'],
            message: `Option labels must be unique within a question: "${option.label}"`,
          });
        }
        seen.add(option.label);
      });
      if (kind === 'choice') {
        if (question.options.length < ASK_USER_QUESTION_MIN_OPTIONS) {
          ctx.addIssue({ code: 'custom', path: ['options'], message: 'A choice question needs 2-4 options' });
        }
        return;
      }
      if (question.options.length > 0) {
        ctx.addIssue({ code: 'custom', path: ['options'], message: `A "${kind}" question takes no options` });
      }
      if (question.multiSelect) {
        ctx.addIssue({
          code: 'custom',
          path: ['multiSelect'],
          message: 'multiSelect applies only to choice questions',
        });
      }
      if (kind !== 'number') return;
      const { min, max, defaultValue } = question;
      if (min === undefined || max === undefined || !(min < max)) {
        ctx.addIssue({ code: 'custom', path: ['min'], message: 'A number question needs min and max with min < max' });
      } else if (defaultValue !== undefined && (defaultValue < min || defaultValue > max)) {
        ctx.addIssue({ code: 'custom', path: ['defaultValue'], message: 'defaultValue must lie within min..max' });
      }
    }),
  );
export type ClaudeCodeQuestion = z.infer<typeof ClaudeCodeQuestionSchema>;

/** Claude Code's AskUserQuestion input on the hook path: lenient where Claude Code is, bounded as Askaway is. */
export const ClaudeCodeAskUserQuestionInputSchema = z.strictObject({
  /** One heading above all the questions (extended format). */
  title: z.optional(text(CLAUDE_CODE_TITLE_MAX)),
  questions: z.array(ClaudeCodeQuestionSchema).check(
    z.minLength(ASK_USER_QUESTION_MIN_QUESTIONS),
    z.maxLength(ASK_USER_QUESTION_MAX_QUESTIONS),
    z.superRefine((questions, ctx) => {
      const seen = new Set<string>();
      questions.forEach((question, index) => {
        if (seen.has(question.question)) {
          ctx.addIssue({
            code: 'custom',
            path: [index, 'question'],
            message: `Question texts must be unique: "${question.question}"`,
          });
        }
        seen.add(question.question);
      });
    }),
  ),
  metadata: z.optional(AskUserQuestionMetadataSchema),
});
export type ClaudeCodeAskUserQuestionInput = z.infer<typeof ClaudeCodeAskUserQuestionInputSchema>;

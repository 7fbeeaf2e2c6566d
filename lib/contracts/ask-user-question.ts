import * as z from 'zod/mini';
import {
  ASK_USER_QUESTION_MAX_NOTES,
  ASK_USER_QUESTION_MAX_PREVIEW,
  ASK_USER_QUESTION_MAX_TEXT,
  ASK_USER_QUESTION_TOOL_CHIP_WIDTH,
} from './limits';
import { validateAskUserQuestionPreview } from './preview';
import { isRecord } from './unknown';

/** Tool name the model calls (R1.1). */
export const ASK_USER_QUESTION_TOOL_NAME = 'AskUserQuestion';
/** Tool name of plan approval (R3.2). */
export const EXIT_PLAN_MODE_TOOL_NAME = 'ExitPlanMode';

export const ASK_USER_QUESTION_MIN_QUESTIONS = 1;
export const ASK_USER_QUESTION_MAX_QUESTIONS = 4;
export const ASK_USER_QUESTION_MIN_OPTIONS = 2;
export const ASK_USER_QUESTION_MAX_OPTIONS = 4;

export const OTHER_OPTION_MESSAGE = 'Do not include an Other option; clients provide it automatically';
export const ANSWERS_NOT_COLLECTED_MESSAGE = 'Answers have not been collected yet';
export const BLANK_ANSWER_MESSAGE = 'Answers must not be blank';
export const UNKNOWN_QUESTION_MESSAGE = 'Answer keys must be question texts of this input';

/** Attaches a description for the provider JSON Schema (R2.5); mini schemas have no `.describe()`. */
function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  z.globalRegistry.add(schema, { description });
  return schema;
}

const notBlank = (message: string) => z.refine<string>((value) => value.trim().length > 0, { message });

/** A string of 1..max characters that is not only whitespace. */
export const nonBlank = (max: number) =>
  z.string().check(z.minLength(1), z.maxLength(max), notBlank('Must not be blank'));

/** An option's preview: bounded, and passing the R2.6 checks. */
export const AskUserQuestionPreviewSchema = z.string().check(
  z.maxLength(ASK_USER_QUESTION_MAX_PREVIEW),
  z.superRefine((preview, ctx) => {
    const reason = validateAskUserQuestionPreview(preview);
    if (reason) ctx.addIssue({ code: 'custom', message: reason });
  }),
);

export const AskUserQuestionOptionSchema = z.strictObject({
  label: described(
    nonBlank(200),
    'Short choice text (1-5 words) the user taps; it becomes the answer. Unique within the question. ' +
      'Never "Other": clients always add a free-text Other choice. ' +
      'Put the recommended option first and end its label with " (Recommended)".',
  ),
  /** What choosing this option means or causes (R2.3). */
  description: described(
    nonBlank(ASK_USER_QUESTION_MAX_TEXT),
    'What choosing this option means or causes: the trade-off or consequence, in one or two sentences.',
  ),
  /** Text/markdown or an HTML fragment shown beside the option list (R2.6). */
  preview: described(
    z.optional(AskUserQuestionPreviewSchema),
    'Optional, single-select questions only: content shown beside the options when the user compares them, ' +
      'e.g. a code snippet, a config diff or a UI mockup. Plain or multi-line markdown text (shown in a ' +
      'monospace box) or an HTML fragment (no <html>/<body>/<!doctype>, no <script>/<style>; use inline styles).',
  ),
});
export type AskUserQuestionOption = z.infer<typeof AskUserQuestionOptionSchema>;

export const AskUserQuestionQuestionSchema = z
  .strictObject({
    question: described(
      nonBlank(ASK_USER_QUESTION_MAX_TEXT),
      'The complete question, ending with a question mark, with the context needed to answer it ' +
        '(the user may read it on a phone, away from your session). Unique among the questions; ' +
        'answers come back keyed by this exact text.',
    ),
    /** Short chip label (R2.2). */
    header: described(
      z.string().check(
        z.minLength(1),
        z.maxLength(ASK_USER_QUESTION_TOOL_CHIP_WIDTH, {
          message: `Header must be at most ${ASK_USER_QUESTION_TOOL_CHIP_WIDTH} characters`,
        }),
        notBlank('Must not be blank'),
      ),
      `Very short topic label shown as a chip, at most ${ASK_USER_QUESTION_TOOL_CHIP_WIDTH} characters, ` +
        'e.g. "Auth method", "Database".',
    ),
    options: described(
      z
        .array(AskUserQuestionOptionSchema)
        .check(z.minLength(ASK_USER_QUESTION_MIN_OPTIONS), z.maxLength(ASK_USER_QUESTION_MAX_OPTIONS)),
      `${ASK_USER_QUESTION_MIN_OPTIONS}-${ASK_USER_QUESTION_MAX_OPTIONS} distinct, realistic choices. ` +
        'Do not add an "Other" option: the user can always type their own answer.',
    ),
    /** Runtime default keeps older calls parsing; the provider schema requires it (R2.5). */
    multiSelect: described(
      z._default(z.boolean(), false),
      'true when the choices are not mutually exclusive and the user may pick several ' +
        '(the answer joins the chosen labels with ", "); false for exactly one choice. Decide explicitly.',
    ),
  })
  .check(
    z.superRefine((question, ctx) => {
      const seen = new Set<string>();
      question.options.forEach((option, index) => {
        if (option.label.trim().toLowerCase() === 'other') {
          ctx.addIssue({ code: 'custom', message: OTHER_OPTION_MESSAGE, path: ['options', index, 'label'] });
        }
        if (seen.has(option.label)) {
          ctx.addIssue({
            code: 'custom',
            message: `Option labels must be unique within a question: "${option.label}"`,
            path: ['options', index, 'label'],
          });
        }
        seen.add(option.label);
      });
    }),
  );
export type AskUserQuestionQuestion = z.infer<typeof AskUserQuestionQuestionSchema>;

export const AskUserQuestionMetadataSchema = described(
  z.strictObject({
    /** Analytics id such as `/remember`; never shown to the user (R2.7). */
    source: described(
      z.optional(z.string().check(z.maxLength(200))),
      'Optional analytics id of what triggered the question, e.g. "/remember". Never shown to the user.',
    ),
  }),
  'Optional tracking data; not shown to the user.',
);

const questionsShape = {
  questions: described(
    z.array(AskUserQuestionQuestionSchema).check(
      z.minLength(ASK_USER_QUESTION_MIN_QUESTIONS),
      z.maxLength(ASK_USER_QUESTION_MAX_QUESTIONS),
      z.superRefine((questions, ctx) => {
        const seen = new Set<string>();
        questions.forEach((question, index) => {
          if (seen.has(question.question)) {
            ctx.addIssue({
              code: 'custom',
              message: `Question texts must be unique: "${question.question}"`,
              path: [index, 'question'],
            });
          }
          seen.add(question.question);
        });
      }),
    ),
    `${ASK_USER_QUESTION_MIN_QUESTIONS}-${ASK_USER_QUESTION_MAX_QUESTIONS} questions asked together. ` +
      'Each must be a decision only the user can make; the user may answer all, some or none of them.',
  ),
  metadata: z.optional(AskUserQuestionMetadataSchema),
};

/** What the model sends: questions, never answers (R2.1–R2.8). Strict. */
export const AskUserQuestionInputSchema = z.strictObject(questionsShape);
export type AskUserQuestionInput = z.infer<typeof AskUserQuestionInputSchema>;
/** The same input before defaults are applied (what a client may legally send). */
export type AskUserQuestionInputLike = z.input<typeof AskUserQuestionInputSchema>;

/** Answers keyed by question text; multi-select joins labels with ", "; "Other" is the typed text (R2.9). */
export const AskUserQuestionAnswersSchema = z.record(
  z.string().check(z.maxLength(ASK_USER_QUESTION_MAX_TEXT)),
  z.string().check(z.maxLength(ASK_USER_QUESTION_MAX_TEXT), notBlank(BLANK_ANSWER_MESSAGE)),
);
export type AskUserQuestionAnswers = z.infer<typeof AskUserQuestionAnswersSchema>;

export const AskUserQuestionAnnotationSchema = z.strictObject({
  preview: z.optional(z.string().check(z.maxLength(ASK_USER_QUESTION_MAX_PREVIEW))),
  notes: z.optional(z.string().check(z.maxLength(ASK_USER_QUESTION_MAX_NOTES))),
});
export type AskUserQuestionAnnotation = z.infer<typeof AskUserQuestionAnnotationSchema>;

export const AskUserQuestionAnnotationsSchema = z.record(
  z.string().check(z.maxLength(ASK_USER_QUESTION_MAX_TEXT)),
  AskUserQuestionAnnotationSchema,
);
export type AskUserQuestionAnnotations = z.infer<typeof AskUserQuestionAnnotationsSchema>;

/**
 * The input the handler accepts (R2.9, R3.5). Answers may cover all, some or none
 * of the questions; only a missing `answers` field means the permission phase has
 * not happened yet, so the handler must not run.
 */
export const AskUserQuestionAnsweredInputSchema = z
  .strictObject({
    ...questionsShape,
    answers: z.optional(AskUserQuestionAnswersSchema),
    annotations: z.optional(AskUserQuestionAnnotationsSchema),
  })
  .check(
    z.superRefine((input, ctx) => {
      if (input.answers === undefined) {
        ctx.addIssue({ code: 'custom', message: ANSWERS_NOT_COLLECTED_MESSAGE, path: ['answers'] });
        return;
      }
      const texts = new Set(input.questions.map((question) => question.question));
      for (const key of Object.keys(input.answers)) {
        if (!texts.has(key))
          ctx.addIssue({ code: 'custom', message: UNKNOWN_QUESTION_MESSAGE, path: ['answers', key] });
      }
      for (const key of Object.keys(input.annotations ?? {})) {
        if (!texts.has(key)) {
          ctx.addIssue({ code: 'custom', message: UNKNOWN_QUESTION_MESSAGE, path: ['annotations', key] });
        }
      }
    }),
  );
export type AskUserQuestionAnsweredInput = z.infer<typeof AskUserQuestionAnsweredInputSchema> & {
  answers: AskUserQuestionAnswers;
};

/**
 * Adds `multiSelect` to `required` of every question object in a JSON Schema.
 * The provider-visible schema makes the model decide single vs multi explicitly,
 * while the zod default keeps older calls that omit it valid (R2.5).
 */
export function withRequiredDefaultedMultiSelect<T>(jsonSchema: T): T {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isRecord(node)) return node;
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) copy[key] = visit(value);
    const properties = copy.properties;
    if (isRecord(properties) && 'multiSelect' in properties && 'options' in properties) {
      const required = Array.isArray(copy.required) ? copy.required.filter((k) => typeof k === 'string') : [];
      if (!required.includes('multiSelect')) required.push('multiSelect');
      copy.required = required;
    }
    return copy;
  };
  return visit(jsonSchema) as T;
}

/** JSON Schema of the tool input as model providers see it (R2.5). */
export function askUserQuestionProviderJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(AskUserQuestionInputSchema, { io: 'input', unrepresentable: 'any' });
  const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
  return withRequiredDefaultedMultiSelect(rest);
}

import * as z from 'zod/mini';
import { nonBlank } from './ask-user-question';
import { ID_MAX } from './limits';

/**
 * What a choice on an approval card means (R18.3): the card groups and colours choices by it, and the
 * response says which was taken. `allow-session` lasts until the agent's session ends, `allow-always`
 * as long as the agent says (OpenCode: until it restarts).
 */
export const ApprovalEffectSchema = z.enum(['allow', 'allow-session', 'allow-always', 'deny', 'cancel']);
export type ApprovalEffect = z.infer<typeof ApprovalEffectSchema>;

/** One choice the agent offers, exactly as it offers it: `id` goes back to the agent. */
export const ApprovalChoiceSchema = z.strictObject({
  id: nonBlank(ID_MAX),
  label: nonBlank(120),
  effect: ApprovalEffectSchema,
  /** What else choosing it means, e.g. the rule it adds ("allow `touch` commands from now on"). */
  detail: z.optional(z.string().check(z.maxLength(2_000))),
});
export type ApprovalChoice = z.infer<typeof ApprovalChoiceSchema>;

/** Largest diff one file change carries to the phone; the card shows the file list first. */
export const APPROVAL_DIFF_MAX = 60_000;
export const APPROVAL_CHANGES_MAX = 100;

export const FileChangeSchema = z.strictObject({
  path: nonBlank(4_096),
  kind: z.enum(['add', 'delete', 'update', 'move']),
  /** Where a moved file goes. */
  movePath: z.optional(z.string().check(z.maxLength(4_096))),
  /** A unified diff, or the new file's content for an added one; absent when the agent did not send one. */
  diff: z.optional(z.string().check(z.maxLength(APPROVAL_DIFF_MAX))),
  /** The diff was cut to APPROVAL_DIFF_MAX. */
  truncated: z.optional(z.boolean()),
});
export type FileChange = z.infer<typeof FileChangeSchema>;

/**
 * An agent asking to do something (R18.3): run a command, change files, widen its permissions, or run a
 * tool. It carries what will run or change and the choices the agent offers, in its own words.
 */
export const ApprovalInputSchema = z
  .strictObject({
    subject: z.enum(['command', 'file-change', 'permissions', 'tool']),
    /** The command line, as the agent will run it. */
    command: z.optional(z.string().check(z.maxLength(20_000))),
    cwd: z.optional(z.string().check(z.maxLength(4_096))),
    /** Why the agent asks, in its words (Codex's justification). */
    reason: z.optional(z.string().check(z.maxLength(4_000))),
    changes: z.optional(z.array(FileChangeSchema).check(z.maxLength(APPROVAL_CHANGES_MAX))),
    /** What the agent asks to be allowed, in its words: OpenCode's patterns, Codex's requested paths. */
    scope: z.optional(z.array(z.string().check(z.maxLength(2_000))).check(z.maxLength(50))),
    /** The tool and its input, for a tool approval. */
    tool: z.optional(
      z.strictObject({ name: nonBlank(ID_MAX), input: z.optional(z.string().check(z.maxLength(20_000))) }),
    ),
    choices: z.array(ApprovalChoiceSchema).check(z.minLength(1), z.maxLength(8)),
  })
  .check(
    z.superRefine((input, ctx) => {
      const ids = new Set<string>();
      for (const choice of input.choices) {
        if (ids.has(choice.id))
          ctx.addIssue({ code: 'custom', path: ['choices'], message: `Choice ids must be unique: "${choice.id}"` });
        ids.add(choice.id);
      }
      if (!input.choices.some((choice) => choice.effect !== 'deny' && choice.effect !== 'cancel'))
        ctx.addIssue({ code: 'custom', path: ['choices'], message: 'An approval needs at least one way to allow' });
    }),
  );
export type ApprovalInput = z.infer<typeof ApprovalInputSchema>;

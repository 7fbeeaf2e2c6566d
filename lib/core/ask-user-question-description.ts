/** Plan-mode note of the model-facing description (R1.2). */
export const ASK_USER_QUESTION_PLAN_MODE_NOTE = `Plan mode note: to plan before acting, switch to planning with EnterPlanMode. While in plan mode, use this tool to clarify requirements or choose between approaches before your plan is final. Never use it to ask "Is my plan ready?" or "Should I proceed?" — the user cannot see your plan until you call ExitPlanMode, which is how a plan is presented for approval.`;

/** The model-facing description of AskUserQuestion (R1.1, R1.2). Models read every word of it. */
export const ASK_USER_QUESTION_DESCRIPTION = `Ask the user one to four multiple-choice questions and wait for their answers.

Use this tool only when you are blocked on a decision that is genuinely the user's to make: one you cannot resolve from the request, the code, or sensible defaults. The test is whether the user's answer would change what you do next.

Do not ask:
- about a choice that has a conventional default — pick the obvious option, mention it in your response, and proceed;
- about a fact the codebase or the environment can answer — look it up instead;
- for permission or confirmation to do what was already requested.

Good questions are about preferences, requirements and trade-offs only the user knows: which of two valid designs fits their plans, which behaviour they expect, what to prioritise.

How to ask:
- Ask everything you need in one call (up to 4 questions) rather than one question at a time.
- Each question gets a short header (at most 12 characters) and 2-4 distinct options; each option has a short label and a description of what choosing it means or causes.
- Users can always pick "Other" and type their own answer, so never add an "Other" option yourself.
- If you recommend an option, put it first and end its label with " (Recommended)".
- Set multiSelect to true when several options can be chosen together, false when exactly one applies.
- An option may carry a preview (a code snippet, config or UI mockup, as markdown text or an HTML fragment) when the user needs to compare concrete artefacts. Previews are for single-select questions only.
- The user may read the question on a phone, away from your session: make each question self-contained.

The user may answer all, some or none of the questions. A skipped question is not a rejection: use your best judgment for anything left unanswered, and never invent a preference the user did not express.

${ASK_USER_QUESTION_PLAN_MODE_NOTE}`;

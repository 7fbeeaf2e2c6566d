import { z } from 'zod';

/**
 * What Claude Code (2.1.332) sends the `Stop` hook when the root session's turn ends (R19.50): the session, its
 * transcript and folder, the prompt the turn belongs to, whether a Stop hook's feedback started it
 * (`stop_hook_active`), the last assistant message, and the background work that will wake Claude later. A
 * subagent's end is `SubagentStop`, never this. Lenient, as every hook payload: Claude Code adds fields over time.
 * The message is bounded by the hook's stdin limit and clipped before it is shown (R19.1).
 */
export const StopPayloadSchema = z
  .object({
    session_id: z.string().min(1).max(200),
    transcript_path: z.string().max(4_096).optional(),
    cwd: z.string().max(4_096).optional(),
    prompt_id: z.string().max(200).optional(),
    hook_event_name: z.literal('Stop'),
    stop_hook_active: z.boolean().optional(),
    last_assistant_message: z.string().optional(),
    background_tasks: z.array(z.unknown()).max(10_000).optional(),
    agent_id: z.string().max(200).optional(),
  })
  .passthrough();
export type StopPayload = z.infer<typeof StopPayloadSchema>;

/**
 * `StopFailure`: the turn ended on an API error (2.1.332: `error` is a category such as "unknown", the error's text
 * is the `last_assistant_message` Claude Code shows, "API Error: 400 …"). Its output is ignored: nothing continues
 * a failed turn from a hook (R19.55).
 */
export const StopFailurePayloadSchema = z
  .object({
    session_id: z.string().min(1).max(200),
    transcript_path: z.string().max(4_096).optional(),
    cwd: z.string().max(4_096).optional(),
    prompt_id: z.string().max(200).optional(),
    hook_event_name: z.literal('StopFailure'),
    error: z.string().max(10_000).optional(),
    last_assistant_message: z.string().optional(),
    agent_id: z.string().max(200).optional(),
  })
  .passthrough();
export type StopFailurePayload = z.infer<typeof StopFailurePayloadSchema>;

/** What a blocking Stop hook prints to continue the turn: Claude Code gives the model `reason` (R19.52). */
export interface StopOutput {
  decision: 'block';
  reason: string;
}

const FINISHED_TASK_STATES = new Set(['completed', 'failed', 'killed', 'stopped', 'cancelled', 'done']);

/**
 * Whether work Claude Code started in the background is still running: it wakes Claude when it ends, so the turn
 * is not the session's last word and gets no card (R19.1). An entry without a status counts as running.
 */
export function hasRunningBackgroundWork(payload: Pick<StopPayload, 'background_tasks'>): boolean {
  return (payload.background_tasks ?? []).some((task) => {
    const status =
      typeof task === 'object' && task !== null && 'status' in task ? (task as { status?: unknown }).status : undefined;
    return typeof status !== 'string' || !FINISHED_TASK_STATES.has(status.toLowerCase());
  });
}

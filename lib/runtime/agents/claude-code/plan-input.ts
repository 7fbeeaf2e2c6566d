import path from 'node:path';
import { PLAN_FILE_PATH_MAX, PLAN_MAX, type PlanApprovalInput } from '../../../contracts';
import { errorMessage } from '../../../contracts';
import { openRegularFile, OutsideFileError } from '../../safe-file';

/**
 * Room for the plan in one announce: the host drops a message over 256 KB, and
 * PLAN_MAX characters of non-Latin text can be three times as many bytes.
 */
export const PLAN_MAX_BYTES = 150_000;
export const PLAN_TRUNCATED_NOTE = '\n\n… (the plan is longer than Askaway shows; the rest is in the terminal)';

const encoder = new TextEncoder();

/** The plan cut to what one interaction may carry, with a note when anything was cut (or `cut` says so). */
export function clipPlan(plan: string, cut = false): string {
  if (!cut && plan.length <= PLAN_MAX && encoder.encode(plan).length <= PLAN_MAX_BYTES) return plan;
  const room = PLAN_MAX - PLAN_TRUNCATED_NOTE.length;
  let kept = plan.slice(0, room);
  while (encoder.encode(kept).length > PLAN_MAX_BYTES - PLAN_TRUNCATED_NOTE.length) {
    kept = kept.slice(0, Math.floor(kept.length * 0.9));
  }
  // Never end on half a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(kept)) kept = kept.slice(0, -1);
  return kept + PLAN_TRUNCATED_NOTE;
}

/**
 * Reads a plan file Claude Code named: only an absolute path to a regular `.md`
 * file (never a FIFO, a device or a link, R12.16), at most PLAN_MAX_BYTES of it.
 * Anything else (missing, a directory, not markdown, unreadable) gives undefined
 * and a log line; it never throws.
 */
export async function readPlanFile(file: string, log: (line: string) => void): Promise<string | undefined> {
  if (!path.isAbsolute(file) || path.extname(file).toLowerCase() !== '.md') {
    log(`askaway hook: not reading the plan file ${JSON.stringify(file)}: only an absolute path to a .md file`);
    return undefined;
  }
  let handle: Awaited<ReturnType<typeof openRegularFile>>['handle'] | undefined;
  try {
    const opened = await openRegularFile(file, { noFollow: true });
    handle = opened.handle;
    const stat = opened.stats;
    const buffer = Buffer.alloc(Math.min(stat.size, PLAN_MAX_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    // A cut through a multi-byte character decodes to U+FFFD: drop it.
    const text = buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/\uFFFD+$/, '');
    return text.trim() === '' ? undefined : clipPlan(text, bytesRead < stat.size);
  } catch (error) {
    if (error instanceof OutsideFileError) log(`askaway hook: not reading the plan file: ${error.message}`);
    else log(`askaway hook: could not read the plan file ${file}: ${errorMessage(error)}`);
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * ExitPlanMode's tool input as a plan approval (R3.2, R11.2). Claude Code 2.1.332
 * sends `{plan, planFilePath}`, or `{}` when no plan file exists: the plan text is
 * used when present, else the named plan file's contents, else no plan at all —
 * the card says so and can still be approved or rejected.
 */
export async function toPlanApprovalInput(
  toolInput: Record<string, unknown>,
  log: (line: string) => void,
  options: { readFile?: boolean } = {},
): Promise<PlanApprovalInput> {
  const input: PlanApprovalInput = {};
  const file = toolInput.planFilePath;
  if (typeof file === 'string' && file.trim() !== '' && file.length <= PLAN_FILE_PATH_MAX) input.planFilePath = file;
  const plan = toolInput.plan;
  if (typeof plan === 'string' && plan.trim() !== '') input.plan = clipPlan(plan);
  else if (input.planFilePath !== undefined && options.readFile !== false) {
    const fromFile = await readPlanFile(input.planFilePath, log);
    if (fromFile !== undefined) input.plan = fromFile;
  }
  if (input.plan === undefined) log('askaway hook: Claude Code sent ExitPlanMode without the plan text');
  return input;
}

import { randomUUID } from 'node:crypto';
import { AGENT_NAMES, ASK_USER_QUESTION_TOOL_NAME, errorMessage, type AskUserQuestionInput } from '../../contracts';
import { isHostConnectionError } from '../errors';
import { HOST_CHECK_TIMEOUT_MS, type RuntimeClientProvider } from '../runtime-client-provider';
import { type AskArgs } from './ask-args';

type AnsweredLike = Partial<AskUserQuestionInput> & { answers?: Record<string, string>; annotations?: unknown };

/** `askaway ask` exit codes (R11.3). */
export const ASK_EXIT = {
  answered: 0,
  badArguments: 2,
  skipped: 3,
  declined: 4,
  unreachable: 5,
  timedOut: 6,
  interrupted: 130,
} as const;

export interface RunAskOptions {
  runtime: RuntimeClientProvider;
  write: (text: string) => void;
  warn: (text: string) => void;
  /** Groups one script's questions on the phone. */
  sessionId?: string;
  cwd?: string;
  signal?: AbortSignal;
  hostCheckTimeoutMs?: number;
}

/** Asks through the host like any runtime and maps the outcome to an exit code. */
export async function runAsk(args: AskArgs, options: RunAskOptions): Promise<number> {
  const requestId = `ask-${randomUUID()}`;
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer =
    args.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort(new Error('timed out'));
        }, args.timeoutMs);
  try {
    const runtime = options.runtime.get('askaway ask');
    await runtime.connection.ready(
      Math.min(options.hostCheckTimeoutMs ?? HOST_CHECK_TIMEOUT_MS, args.timeoutMs ?? Infinity),
    );
    const result = await runtime.broker.requestPermission(
      {
        requestId,
        sessionId: options.sessionId ?? `cli-${process.ppid}`,
        toolName: ASK_USER_QUESTION_TOOL_NAME,
        input: args.input,
        origin: { kind: 'root', label: 'askaway ask', path: [], depth: 0 },
        agent: { kind: 'ask', name: AGENT_NAMES.ask },
        context: options.cwd ? { cwd: options.cwd.slice(0, 1_000) } : undefined,
      },
      { signal: controller.signal },
    );
    if (result.decision === 'deny') {
      options.warn(`${result.message}\n`);
      return ASK_EXIT.declined;
    }
    const modified: AnsweredLike = result.decision === 'modify' ? (result.modifiedInput as AnsweredLike) : {};
    const answers = modified.answers ?? {};
    const answer = Object.values(answers)[0];
    if (args.json)
      options.write(
        `${JSON.stringify({ ...args.input, answers, ...(modified.annotations ? { annotations: modified.annotations } : {}) })}\n`,
      );
    else if (answer !== undefined) options.write(`${answer}\n`);
    if (answer === undefined) options.warn('Skipped: no answer was given.\n');
    return answer === undefined ? ASK_EXIT.skipped : ASK_EXIT.answered;
  } catch (error) {
    if (timedOut) {
      options.warn(`No answer within ${Math.round((args.timeoutMs ?? 0) / 1000)} s; the question was withdrawn.\n`);
      return ASK_EXIT.timedOut;
    }
    if (options.signal?.aborted) return ASK_EXIT.interrupted;
    options.warn(`${errorMessage(error)}\n`);
    if (isHostConnectionError(error) && error.code === 'withdrawn') return ASK_EXIT.declined;
    return ASK_EXIT.unreachable;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

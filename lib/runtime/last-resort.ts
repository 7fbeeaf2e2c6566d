// The process-wide last resort of the long-running commands that carry another program's messages (R12.18):
// `askaway start`, `askaway codex`, `askaway copilot`, `askaway acp`. A rejection nobody handled or an exception
// nobody caught on a bridge's path is a bug of ours, and a program on the other end must not be able to turn it
// into the hub (or the editor's agent, or Copilot's bridge) stopping: the process logs one line and keeps serving.

/** Lines the last resort writes per minute at most; the rest are counted and said with the next one. */
const LINES_PER_MINUTE = 10;
const MESSAGE_MAX = 300;

type Kind = 'unhandled rejection' | 'uncaught exception';

/** One line about what went wrong: its message, clipped, on one line; never a throw, whatever `reason` is. */
export function lastResortLine(kind: Kind, reason: unknown): string {
  let message: string;
  try {
    message =
      reason instanceof Error
        ? `${reason.name}: ${reason.message}`
        : typeof reason === 'string'
          ? reason
          : `a ${reason === null ? 'null' : typeof reason}`;
  } catch {
    message = 'an unreadable reason';
  }
  const oneLine = message.replace(/\s+/g, ' ').trim();
  const clipped = oneLine.length > MESSAGE_MAX ? `${oneLine.slice(0, MESSAGE_MAX - 1)}…` : oneLine;
  return `askaway: kept serving after an ${kind}: ${clipped}`;
}

/**
 * Installs handlers for `unhandledRejection` and `uncaughtException` that log one line each (at most
 * LINES_PER_MINUTE a minute, then a count) and let the process go on. Returns the undo, for a command that
 * returns (and for in-process tests).
 */
export function installLastResort(
  log: (line: string) => void,
  now: () => number = Date.now,
  /** Where the events come from: the process, or an emitter standing in for it. */
  target: Pick<NodeJS.EventEmitter, 'on' | 'off'> = process,
): () => void {
  let windowStart = now();
  let lines = 0;
  let unsaid = 0;
  const report = (kind: Kind, reason: unknown) => {
    try {
      if (now() - windowStart >= 60_000) {
        windowStart = now();
        lines = 0;
      }
      if (lines >= LINES_PER_MINUTE) {
        unsaid += 1;
        return;
      }
      lines += 1;
      const more = unsaid > 0 ? ` (and ${unsaid} more not logged before it)` : '';
      unsaid = 0;
      log(`${lastResortLine(kind, reason)}${more}`);
    } catch {
      // Throwing here would end the process this is meant to keep.
    }
  };
  const onRejection = (reason: unknown) => report('unhandled rejection', reason);
  const onException = (error: unknown) => report('uncaught exception', error);
  target.on('unhandledRejection', onRejection);
  target.on('uncaughtException', onException);
  return () => {
    target.off('unhandledRejection', onRejection);
    target.off('uncaughtException', onException);
  };
}

/** How a parent process (or a closing terminal) stops a long-running command. */
export const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
/** Time to withdraw what is pending from the phones after a stop signal; the connection flushes for at most 1 s. */
export const STOP_GRACE_MS = 1_500;

/**
 * Runs `work` with a signal that aborts on the first stop signal; the process then exits after the grace
 * period whatever `work` is still doing, so withdrawing never outlives it.
 */
export async function untilStopped<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    stop.abort(new Error(`stopped (${signal})`));
    setTimeout(() => process.exit(0), STOP_GRACE_MS).unref();
  };
  for (const signal of STOP_SIGNALS) process.once(signal, onSignal);
  try {
    return await work(stop.signal);
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  }
}

/** One event of a Chromium trace (Tracing.start's JSON), as the trace scripts read it. */
export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's CPU time for a complete event, where the trace records it. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { data?: Record<string, unknown>; name?: string } & Record<string, unknown>;
}

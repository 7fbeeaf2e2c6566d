import { errorMessage, terminalSafe } from '../contracts';

/** One line per caller and message type in this window; what else happens in it is counted into the next. */
export const INCIDENT_QUIET_MS = 10_000;
/** Callers × message types remembered at once; beyond it the table starts over. */
const MAX_KEYS = 1_024;

interface Quiet {
  until: number;
  suppressed: number;
}

/**
 * The host's log of messages it refused or could not process (R10.4, R12.3): which caller, which
 * message type, which rule. A flood from one caller writes a line per window, not per message, so
 * the log cannot be used to fill the disk or hide other lines; every text from outside is escaped.
 */
export class MessageIncidents {
  private readonly quiet = new Map<string, Quiet>();

  constructor(
    private readonly log: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** A message that broke a rule of the contracts (shape, schema, size): refused, and the caller told. */
  refused(who: string, event: string, rule: string): void {
    this.write(who, event, `refused '${event}' from ${who}: ${rule}`);
  }

  /** A handler threw on a message: the caller got an error reply and the host goes on. */
  failed(who: string, event: string, error: unknown): void {
    const detail = error instanceof Error ? (error.stack ?? error.message) : errorMessage(error);
    this.write(who, event, `could not process '${event}' from ${who}: ${detail}`);
  }

  private write(who: string, event: string, line: string): void {
    const key = `${who}\u0000${event}`;
    const now = this.now();
    const quiet = this.quiet.get(key);
    if (quiet && now < quiet.until) {
      quiet.suppressed += 1;
      return;
    }
    if (this.quiet.size >= MAX_KEYS) this.quiet.clear();
    const more = quiet && quiet.suppressed > 0 ? ` (and ${quiet.suppressed} more like it before this)` : '';
    this.quiet.set(key, { until: now + INCIDENT_QUIET_MS, suppressed: 0 });
    // Stacks keep their line breaks; everything else in the line is one escaped line.
    this.log(`askaway: ${line.split('\n').map(terminalSafe).join('\n    ')}${more}`);
  }
}

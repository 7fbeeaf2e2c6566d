import type * as z from 'zod/mini';
import { formatIssues, type IssueLike } from '../core/format-issues';
import { safeParseHot } from '../core/hot-parse';

/** A message from the host that breaks the protocol: which message, and which rule it broke. */
export interface HostProtocolError {
  /** The socket.io event: a notice the host sent (`resolved`), or the command whose reply it is (`announce`). */
  event: string;
  /** A reply to one of this runtime's commands, not a notice. */
  reply: boolean;
  /** The broken rules and where, e.g. `resolution.resolvedBy: Invalid option: …`. */
  rule: string;
}

export interface ProtocolErrorOptions {
  /** Called for every malformed message from the host; the connection drops the message and goes on. */
  onProtocolError?: (error: HostProtocolError) => void;
  /** Where the line naming a malformed message goes; defaults to stderr (stdout may be an MCP stream). */
  log?: (line: string) => void;
}

export function protocolErrorLine(error: HostProtocolError): string {
  const what = error.reply ? `reply to '${error.event}'` : `'${error.event}' notice`;
  return `askaway: dropped a malformed ${what} from the host: ${error.rule}`;
}

/**
 * Parses what the host sent, and reports what fails: a callback and a log line,
 * never a silent drop. A host speaking another dialect (or a bug in it) then
 * shows up where someone looks, while the runtime keeps going (re-announces
 * recover a lost notice, R8.1).
 */
export class HostMessageParser {
  constructor(private readonly options: ProtocolErrorOptions = {}) {}

  /** A notice the host sent on its own. */
  notice<T>(schema: z.core.$ZodType<T>, event: string, raw: unknown): T | undefined {
    return this.parse(schema, raw, { event, reply: false });
  }

  /** The host's reply to this runtime's `event`. */
  reply<T>(schema: z.core.$ZodType<T>, event: string, raw: unknown): T | undefined {
    return this.parse(schema, raw, { event, reply: true });
  }

  report(error: HostProtocolError): void {
    const log = this.options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
    log(protocolErrorLine(error));
    this.options.onProtocolError?.(error);
  }

  private parse<T>(schema: z.core.$ZodType<T>, raw: unknown, what: Omit<HostProtocolError, 'rule'>): T | undefined {
    const parsed = safeParseHot(schema, raw);
    if (parsed.success) return parsed.data;
    this.report({ ...what, rule: describeIssues(parsed.error.issues) });
    return undefined;
  }
}

/**
 * formatIssues, except that a union no variant of which matched (every ack is
 * `{ok: true, …} | {ok: false, error}`) is explained rather than reported as
 * "Invalid input": by the variant whose literal fields fit, else by what the
 * literal fields should have been.
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return formatIssues(issues.flatMap((issue) => expand(issue, [])));
}

function expand(issue: z.core.$ZodIssue, base: readonly PropertyKey[]): IssueLike[] {
  const path = [...base, ...issue.path];
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [{ path, message: issue.message }];
  const literalMisses = (variant: z.core.$ZodIssue[]) =>
    variant.filter((inner) => inner.code === 'invalid_value' && inner.path.length === 1);
  const fitting = issue.errors.filter((variant) => literalMisses(variant).length === 0);
  if (fitting.length > 0) {
    const closest = fitting.reduce((best, variant) => (variant.length < best.length ? variant : best));
    return closest.flatMap((inner) => expand(inner, path));
  }
  const fewest = Math.min(...issue.errors.map((variant) => literalMisses(variant).length));
  const expected = new Map<PropertyKey, string[]>();
  for (const variant of issue.errors) {
    const misses = literalMisses(variant);
    if (misses.length !== fewest) continue;
    for (const miss of misses) {
      if (miss.code !== 'invalid_value') continue;
      const key = miss.path[0] ?? '';
      expected.set(key, [...(expected.get(key) ?? []), ...miss.values.map((value) => JSON.stringify(value))]);
    }
  }
  return [...expected].map(([key, values]) => ({
    path: [...path, key],
    message: `none of the variants fits: expected ${values.join(' or ')}`,
  }));
}

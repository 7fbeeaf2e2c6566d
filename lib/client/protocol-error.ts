/** A message from the host that broke its contract. Never dropped silently (R10.4). */
export interface ProtocolError {
  /** The socket.io event: one the host sent (`events`, `snapshot`, `connect_error`), or the command replied to. */
  event:
    | 'snapshot'
    | 'events'
    | 'machines'
    | 'connect_error'
    | 'respond'
    | 'preferences:update'
    | 'snapshot:get'
    | 'pending:more';
  /** A reply (ack) to one of this app's commands, not a message the host sent on its own. */
  reply: boolean;
  /** Which rule broke and where, e.g. `events[0].type: expected one of interaction.requested, …`. */
  rule: string;
}

/**
 * The parts of a zod issue read here. The phone bundle loads no zod locale (every message
 * says "Invalid input"), so the rule is told from the issue's own fields instead.
 */
export interface IssueLike {
  readonly code?: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly expected?: unknown;
  readonly values?: readonly unknown[];
  readonly keys?: readonly string[];
  readonly options?: readonly unknown[];
  readonly discriminator?: string;
  readonly errors?: readonly (readonly IssueLike[])[];
  readonly maximum?: unknown;
  readonly minimum?: unknown;
  readonly format?: string;
}

const GENERIC = 'Invalid input';

/** `events[0].type` for a path; `(root)` for the empty one. */
function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += text === '' ? String(part) : `.${String(part)}`;
  }
  return text === '' ? '(root)' : text;
}

function list(values: readonly unknown[]): string {
  return values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(', ');
}

function rule(issue: IssueLike): string {
  if (issue.message !== GENERIC) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${String(issue.expected)}`;
    case 'invalid_value':
      return `expected ${issue.values?.length === 1 ? '' : 'one of '}${list(issue.values ?? [])}`;
    case 'unrecognized_keys':
      return `unexpected key${issue.keys?.length === 1 ? '' : 's'} ${list(issue.keys ?? [])}`;
    case 'too_big':
      return `too big (at most ${String(issue.maximum)})`;
    case 'too_small':
      return `too small (at least ${String(issue.minimum)})`;
    case 'invalid_format':
      return `expected the ${issue.format ?? 'right'} format`;
    case 'invalid_union':
      return issue.options ? `expected one of ${list(issue.options)}` : 'matches none of the allowed shapes';
    default:
      return issue.code ?? GENERIC;
  }
}

/** A union's issues are those of the variant that came closest (fewest issues), under the union's path. */
function flatten(issue: IssueLike): IssueLike[] {
  const variants = issue.code === 'invalid_union' && !issue.options ? (issue.errors ?? []) : [];
  const closest = variants.reduce<readonly IssueLike[] | undefined>(
    (best, variant) => (best === undefined || variant.length < best.length ? variant : best),
    undefined,
  );
  if (!closest || closest.length === 0) return [issue];
  return closest.flatMap((inner) => flatten({ ...inner, path: [...issue.path, ...inner.path] }));
}

/** One line naming every broken rule and where. */
export function describeIssues(issues: readonly IssueLike[]): string {
  const flat = issues.flatMap(flatten);
  return flat.length === 0
    ? 'does not match its schema'
    : flat.map((i) => `${formatPath(i.path)}: ${rule(i)}`).join('; ');
}

export function formatProtocolError(error: ProtocolError): string {
  const what = error.reply ? `reply to '${error.event}'` : `'${error.event}' message`;
  return `askaway: the host sent a malformed ${what}: ${error.rule}`;
}

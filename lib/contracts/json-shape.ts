// No imports: the host checks every message with this before zod (or JSON.stringify) walks it.

/** How deep and how big a parsed JSON value may be (R12.5). */
export interface JsonShapeLimits {
  /** Containers (objects, arrays) inside one another, the outermost counting as 1. */
  maxDepth: number;
  /** Values of any kind, containers included. */
  maxNodes: number;
}

/**
 * Every message a runtime or a remote sends the host. The deepest real one (an MCP form's
 * schema inside an announce) nests about 10 levels; `JSON.stringify` and recursive schema
 * walks overflow the stack at a few thousand, so far below that is far above any real message.
 * An announce batch of 5,000 entries is about 15,000 values.
 */
export const MESSAGE_SHAPE_LIMITS: JsonShapeLimits = { maxDepth: 32, maxNodes: 50_000 };

/** A tool's input inside a permission prompt: what the card pretty-prints (R12.3). */
export const TOOL_INPUT_SHAPE_LIMITS: JsonShapeLimits = { maxDepth: 24, maxNodes: 10_000 };

/**
 * The rule `value` breaks, or undefined when it fits `limits`. It walks with its own stack
 * rather than by recursion, so no input can overflow the call stack here, and it stops at the
 * first container past a limit.
 */
export function jsonShapeProblem(value: unknown, limits: JsonShapeLimits): string | undefined {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  let nodes = 1;
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    if (typeof entry.value !== 'object' || entry.value === null) continue;
    if (entry.depth > limits.maxDepth) return `nests deeper than ${limits.maxDepth} levels`;
    const children: unknown[] = Array.isArray(entry.value) ? entry.value : Object.values(entry.value);
    nodes += children.length;
    if (nodes > limits.maxNodes) return `holds more than ${limits.maxNodes} values`;
    for (const child of children) stack.push({ value: child, depth: entry.depth + 1 });
  }
  return undefined;
}

/**
 * Every message a bridge reads from another program: a Codex daemon's frame, Copilot's `--ui-server` port,
 * an ACP agent's or editor's line (R12.18). As deep as the host's own sockets allow; more values, since a
 * daemon's notifications carry whole diffs and a resumed thread its turns. Checked before anything walks it.
 */
export const BRIDGE_MESSAGE_SHAPE_LIMITS: JsonShapeLimits = {
  maxDepth: MESSAGE_SHAPE_LIMITS.maxDepth,
  maxNodes: 500_000,
};

/** A bridge's message parsed and checked against `limits`, or why it was refused (not JSON, too deep, too big). */
export type BoundedJson = { ok: true; value: unknown } | { ok: false; problem: string };

/**
 * Parses `text` as JSON and checks its shape (R12.18). `JSON.parse` itself does not recurse in V8, so a
 * frame nested thousands deep is parsed, then refused here before `JSON.stringify`, zod or a schema walk
 * could overflow the stack on it.
 */
export function parseBoundedJson(text: string, limits: JsonShapeLimits = BRIDGE_MESSAGE_SHAPE_LIMITS): BoundedJson {
  // Looked at as text first: parsing a 16 MiB line nested millions deep builds millions of arrays (half a second
  // and hundreds of MiB each) only to refuse them.
  const early = textShapeProblem(text, limits);
  if (early !== undefined) return { ok: false, problem: early };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'is not JSON' };
  }
  const problem = jsonShapeProblem(value, limits);
  return problem === undefined ? { ok: true, value } : { ok: false, problem };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/**
 * The rule JSON `text` would break once parsed, read from the text alone in one pass that allocates nothing:
 * containers nested past `maxDepth`, or more values than `maxNodes` (each container's commas and its first
 * value). It counts a repeated key as the value it replaces, so it is never laxer than jsonShapeProblem; text
 * that is not JSON is left to JSON.parse.
 */
export function textShapeProblem(text: string, limits: JsonShapeLimits): string | undefined {
  let depth = 0;
  let nodes = 1;
  let inString = false;
  /** Whether the innermost open container holds a value yet. */
  let holdsValue = true;
  /** The same for each container around it, as bits (never deeper than maxDepth, or the text is refused). */
  const outer: boolean[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
      continue;
    }
    if (isSpace(code)) continue;
    if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth -= 1;
      holdsValue = outer.pop() ?? true;
      continue;
    }
    if (code === COMMA) {
      nodes += 1;
    } else if (!holdsValue) {
      holdsValue = true;
      nodes += 1;
    }
    if (nodes > limits.maxNodes) return `holds more than ${limits.maxNodes} values`;
    if (code === QUOTE) inString = true;
    else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      depth += 1;
      if (depth > limits.maxDepth) return `nests deeper than ${limits.maxDepth} levels`;
      outer.push(holdsValue);
      holdsValue = false;
    }
  }
  return undefined;
}

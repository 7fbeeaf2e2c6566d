import * as z from 'zod/mini';
import './zod-locale';

/** A schema's uses before it is compiled: a process that parses it once (a hook) never pays for compiling. */
export const COMPILE_AFTER_USES = 2;

interface HotSchema {
  uses: number;
  compiled?: z.core.$ZodType;
}

const hot = new WeakMap<z.core.$ZodType, HotSchema>();

/**
 * `z.safeParse` for a schema on the message path of a long-lived process (every
 * command the host takes, every reply and notice a runtime gets). zod/mini walks a
 * schema node by node, and each message is one cold walk: ~145 µs for an announced
 * question on 2 cores. zod's `compile` generates code for the schema instead (~45 µs);
 * input it rejects still goes through the interpreted parser, so results and error
 * reports stay the same. Compiling takes 1–35 ms per schema, so it happens after the
 * second use, on a timer rather than on the message's path; until then, and where
 * `new Function` is unavailable, the interpreted schema answers.
 */
export function safeParseHot<Schema extends z.core.$ZodType>(
  schema: Schema,
  value: unknown,
): z.core.util.SafeParseResult<z.output<Schema>> {
  let state = hot.get(schema);
  if (!state) {
    state = { uses: 0 };
    hot.set(schema, state);
  }
  state.uses += 1;
  if (state.uses === COMPILE_AFTER_USES) compileSoon(schema, state);
  return z.safeParse((state.compiled as Schema | undefined) ?? schema, value);
}

function compileSoon(schema: z.core.$ZodType, state: HotSchema): void {
  const timer = setTimeout(() => {
    // compile() hands back the schema itself when it cannot compile it.
    state.compiled = z.compile(schema);
  }, 0);
  // Never the reason a process stays up.
  timer.unref?.();
}

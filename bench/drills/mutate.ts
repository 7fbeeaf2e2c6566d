/** Random values and mutations of valid messages, for the fuzz drill. Seeded for reproducible runs. */
export function rng(seed: number) {
  let state = seed >>> 0 || 1;
  const next = () => {
    // xorshift32
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick };
}
export type Rng = ReturnType<typeof rng>;

const STRINGS = [
  '',
  ' ',
  'AskUserQuestion',
  'ExitPlanMode',
  '__proto__',
  'constructor',
  '\u0000',
  '😀'.repeat(50),
  '<script>alert(1)</script>',
  'x'.repeat(5_000),
];

export function randomValue(random: Rng, depth = 0): unknown {
  switch (random.int(depth > 3 ? 6 : 9)) {
    case 0:
      return null;
    case 1:
      return random.next() < 0.5;
    case 2:
      return random.pick([0, -1, 1.5, 2 ** 53, -(2 ** 31), 1e308]);
    case 3:
      return random.pick(STRINGS);
    case 4:
      return new Date(random.int(2 ** 42)).toISOString();
    case 5:
      return 'x'.repeat(random.int(2_000));
    case 6:
      return Array.from({ length: random.int(5) }, () => randomValue(random, depth + 1));
    case 7: {
      const object: Record<string, unknown> = {};
      for (let index = random.int(5); index > 0; index -= 1)
        object[random.pick(STRINGS.slice(0, 9))] = randomValue(random, depth + 1);
      return object;
    }
    default:
      return deepNest(random.int(2_000));
  }
}

function deepNest(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

/** A copy of `message` with one to three random changes anywhere inside it. */
export function mutate(random: Rng, message: unknown): unknown {
  const copy: unknown = structuredClone(message);
  for (let count = 1 + random.int(3); count > 0; count -= 1) mutateOnce(random, copy);
  return copy;
}

function mutateOnce(random: Rng, root: unknown): void {
  // Walk down a random path of objects/arrays, then change one slot there.
  let node = root;
  for (let depth = 0; depth < 6; depth += 1) {
    if (typeof node !== 'object' || node === null) return;
    const keys = Object.keys(node);
    if (keys.length === 0 || random.next() < 0.35) break;
    const child = (node as Record<string, unknown>)[random.pick(keys)];
    if (typeof child !== 'object' || child === null) break;
    node = child;
  }
  if (typeof node !== 'object' || node === null) return;
  const target = node as Record<string, unknown>;
  const keys = Object.keys(target);
  const key =
    keys.length > 0 && random.next() < 0.8
      ? random.pick(keys)
      : random.pick(['extra', '__proto__', 'constructor', 'toString']);
  const action = random.int(3);
  if (action === 0) delete target[key];
  else
    Object.defineProperty(target, key, {
      value: randomValue(random),
      enumerable: true,
      configurable: true,
      writable: true,
    });
}

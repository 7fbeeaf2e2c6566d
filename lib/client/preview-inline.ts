// R9.15: a preview's inline markdown (code spans, emphasis, links) parsed into parts the card renders as text.
// Every scan here is linear in the line (R12.12): a preview is outside input, up to 20,000 characters, and a
// backtracking or restarting scan on `[[[[…` or a run of backticks would hold the phone's one thread.

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong' | 'em' | 'del'; children: Inline[] };

/** Counts the characters the parser looks at, so tests can check the work is linear in the input. */
export interface Meter {
  steps: number;
}

const EMPHASIS: { open: string; kind: 'strong' | 'em' | 'del' }[] = [
  { open: '**', kind: 'strong' },
  { open: '__', kind: 'strong' },
  { open: '~~', kind: 'del' },
  { open: '*', kind: 'em' },
  { open: '_', kind: 'em' },
];

/**
 * The first index at or after `from` where `pattern` (global) matches, or the end. Remembers its last answer:
 * every opener before a `]` shares that `]`, so asked in increasing order each character is scanned once.
 */
function finder(source: string, pattern: RegExp, meter: Meter | undefined): (from: number) => number {
  let lastFrom = -1;
  let lastFound = -1;
  return (from) => {
    if (from >= lastFrom && from <= lastFound) return lastFound;
    pattern.lastIndex = from;
    const found = pattern.exec(source)?.index ?? source.length;
    if (meter) meter.steps += found - from + 1;
    lastFrom = from;
    lastFound = found;
    return found;
  };
}

/**
 * For each backtick, where its run ends; for each index, the longest run of backticks that starts there or
 * later. A run with no run at least as long after it closes nothing, known without searching.
 */
function backtickRuns(source: string): { runEnd: Int32Array; longestFrom: Int32Array } {
  const runEnd = new Int32Array(source.length + 1);
  const longestFrom = new Int32Array(source.length + 2);
  for (let at = source.length - 1; at >= 0; at -= 1) {
    const isTick = source[at] === '`';
    if (isTick) runEnd[at] = source[at + 1] === '`' ? (runEnd[at + 1] ?? at + 1) : at + 1;
    const starts = isTick && source[at - 1] !== '`';
    longestFrom[at] = Math.max(longestFrom[at + 1] ?? 0, starts ? (runEnd[at] ?? at) - at : 0);
  }
  return { runEnd, longestFrom };
}

/** Code spans, emphasis, links and images as their text; anything else, including HTML, stays as written. */
export function parseInline(source: string, meter?: Meter): Inline[] {
  const out: Inline[] = [];
  let text = '';
  const flush = () => {
    if (text) out.push({ kind: 'text', text });
    text = '';
  };
  const append = (parts: readonly Inline[]) => {
    for (const part of parts) out.push(part);
  };
  const ticks = source.includes('`') ? backtickRuns(source) : null;
  // `![text](address "title")`: the regex `^!?\[([^\]]*)\]\(([^)\s]*)(?:\s+"[^"]*")?\)`, read without backtracking.
  const nextClose = finder(source, /\]/g, meter);
  const nextStop = finder(source, /[)\s]/g, meter);
  const nextNonSpace = finder(source, /\S/g, meter);
  const nextQuote = finder(source, /"/g, meter);
  const link = (at: number): { words: string; end: number } | null => {
    const open = source[at] === '!' ? at + 1 : at;
    if (source[open] !== '[') return null;
    const close = nextClose(open + 1);
    if (close >= source.length || source[close + 1] !== '(') return null;
    const stop = nextStop(close + 2);
    if (source[stop] === ')') return { words: source.slice(open + 1, close), end: stop + 1 };
    if (stop >= source.length) return null;
    const title = nextNonSpace(stop);
    if (source[title] !== '"') return null;
    const endQuote = nextQuote(title + 1);
    if (endQuote >= source.length || source[endQuote + 1] !== ')') return null;
    return { words: source.slice(open + 1, close), end: endQuote + 2 };
  };
  let at = 0;
  while (at < source.length) {
    if (meter) meter.steps += 1;
    const char = source[at] ?? '';
    if (char === '\\' && at + 1 < source.length && /[!-/:-@[-`{-~]/.test(source[at + 1] ?? '')) {
      text += source[at + 1];
      at += 2;
      continue;
    }
    if (char === '`' && ticks) {
      const after = ticks.runEnd[at] ?? at + 1;
      const run = after - at;
      // The span closes at the next run of at least as many backticks (or inside a longer one).
      if ((ticks.longestFrom[after] ?? 0) >= run) {
        const end = source.indexOf(source.slice(at, after), after);
        if (meter) meter.steps += end - after + 1;
        flush();
        const code = source.slice(after, end);
        out.push({ kind: 'code', text: /^ .* $/.test(code) ? code.slice(1, -1) : code });
        at = end + run;
        continue;
      }
    }
    const found = char === '[' || char === '!' ? link(at) : null;
    if (found) {
      // A preview cannot navigate or load anything (R12.2): a link is its words, an image its description.
      flush();
      append(parseInline(found.words, meter));
      at = found.end;
      continue;
    }
    const emphasis = EMPHASIS.find(({ open }) => source.startsWith(open, at));
    if (emphasis) {
      const { open, kind } = emphasis;
      const inner = at + open.length;
      const end = source.indexOf(open, inner + 1);
      // The nearest closer of the same kind: each scan ends at the next opener of that kind, so all are linear.
      if (meter) meter.steps += (end < 0 ? source.length : end) - inner;
      // Emphasis hugs its words ("*a b*", not "a * b"); an underscore inside a word (snake_case) stays.
      const hugs = end > inner && source[inner] !== ' ' && source[end - 1] !== ' ';
      const intraword =
        open[0] === '_' && (/\w/.test(source[at - 1] ?? '') || /\w/.test(source[end + open.length] ?? ''));
      if (hugs && !intraword) {
        flush();
        out.push({ kind, children: parseInline(source.slice(inner, end), meter) });
        at = end + open.length;
        continue;
      }
    }
    text += char;
    at += 1;
  }
  flush();
  return out;
}

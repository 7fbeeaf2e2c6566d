import { describe, expect, it } from 'vitest';
import { ASK_USER_QUESTION_MAX_PREVIEW } from '@/lib/contracts/limits';
import {
  PREVIEW_NESTING_MAX,
  parseInline,
  parsePreview,
  type Block,
  type Inline,
  type Meter,
} from './preview-markdown';

const repeat = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

function depthOf(blocks: readonly Block[]): number {
  let deepest = 0;
  for (const block of blocks) {
    const inner =
      block.kind === 'quote'
        ? depthOf(block.blocks)
        : block.kind === 'list'
          ? Math.max(0, ...block.items.map((item) => depthOf(item.blocks)))
          : -1;
    deepest = Math.max(deepest, inner + 1);
  }
  return deepest;
}

function textOf(value: unknown): string {
  return JSON.stringify(value);
}

/** Steps the parser takes on `make(n)` and on `make(4n)`: linear work is four times as much, quadratic sixteen. */
function growth(parse: (source: string, meter: Meter) => unknown, make: (length: number) => string, n: number) {
  const steps = (length: number) => {
    const meter: Meter = { steps: 0 };
    parse(make(length), meter);
    return meter.steps;
  };
  const small = steps(n);
  const large = steps(4 * n);
  return { small, large, ratio: small === 0 ? Infinity : large / small };
}

describe('a preview is parsed in bounded depth and linear work (R12.12)', () => {
  it('[R12.12] quotes and lists nested 20,000 characters deep parse and keep their words, nested at most so far', () => {
    const length = ASK_USER_QUESTION_MAX_PREVIEW;
    for (const unit of ['> ', '>', '- [ ] ', '- ', '1. ', '* > ']) {
      const source = `${repeat(unit, length - 'deepest'.length)}deepest`;
      const blocks = parsePreview(source);
      expect(depthOf(blocks)).toBeLessThanOrEqual(PREVIEW_NESTING_MAX + 1);
      // What lies past the limit is shown as written.
      expect(textOf(blocks)).toContain('deepest');
    }
  });

  it('[R12.12] a list nested line by line, deeper than the limit, shows its deepest lines as written', () => {
    const lines = Array.from({ length: 40 }, (_, depth) => `${'  '.repeat(depth)}- level ${depth}`);
    const blocks = parsePreview(lines.join('\n'));
    expect(depthOf(blocks)).toBeLessThanOrEqual(PREVIEW_NESTING_MAX + 1);
    expect(textOf(blocks)).toContain('level 39');
    // Shallow nesting is unchanged.
    expect(parsePreview('- a\n  - b')).toEqual([
      {
        kind: 'list',
        ordered: false,
        start: 1,
        items: [
          {
            task: null,
            blocks: [
              { kind: 'paragraph', lines: [[{ kind: 'text', text: 'a' }]] },
              {
                kind: 'list',
                ordered: false,
                start: 1,
                items: [{ task: null, blocks: [{ kind: 'paragraph', lines: [[{ kind: 'text', text: 'b' }]] }] }],
              },
            ],
          },
        ],
      },
    ]);
  });

  // Each family made a scan restart at every character, or a regular expression backtrack, on the old parser.
  const inlineFamilies: Record<string, (length: number) => string> = {
    'unclosed brackets': (length) => repeat('[', length),
    'unclosed image brackets': (length) => repeat('![', length),
    'links with no closing parenthesis': (length) => repeat('[](', length),
    'links with an unclosed title': (length) => `${repeat('[]( "', length)}x`,
    backticks: (length) => repeat('`', length),
    'backtick runs growing': (length) => repeat('a`', length / 2) + repeat('b``', length / 2),
    stars: (length) => repeat('**a', length),
    underscores: (length) => repeat('_a', length),
    tildes: (length) => repeat('~~a ', length),
  };

  it.each(Object.entries(inlineFamilies))('[R12.12] inline %s take work linear in their length', (_, make) => {
    const { small, ratio } = growth((source, meter) => parseInline(source, meter), make, 10_000);
    expect(small).toBeGreaterThan(0);
    expect(small).toBeLessThan(10 * 10_000);
    expect(ratio).toBeLessThan(4.5);
  });

  const blockFamilies: Record<string, (length: number) => string> = {
    'a nested quote': (length) => repeat('> ', length),
    'a nested task list': (length) => repeat('- [ ] ', length),
    'a list nested line by line': (length) => {
      let source = '';
      for (let depth = 0; source.length < length; depth += 1) source += `${' '.repeat(2 * depth)}- a\n`;
      return source;
    },
    'a wide table over one-character rows': (length) => `|\n${repeat('|-', length / 2)}\n${repeat('|\n', length / 2)}`,
    'brackets in a paragraph': (length) => repeat('[', length),
  };

  it.each(Object.entries(blockFamilies))('[R12.12] %s takes work linear in its length', (_, make) => {
    const { small, ratio } = growth((source, meter) => parsePreview(source, meter), make, 10_000);
    expect(small).toBeGreaterThan(0);
    expect(ratio).toBeLessThan(4.5);
  });

  it('[R12.12] a table padded past what the preview holds shows as written; a normal short row is padded', () => {
    const source = `|\n${repeat('|-', 2_000)}\n${repeat('|\n', 2_000)}`;
    const blocks = parsePreview(source);
    expect(blocks.map((block) => block.kind)).toEqual(['art']);
    const table = parsePreview('| a | b | c |\n|---|---|---|\n| x |');
    expect(table).toEqual([
      {
        kind: 'table',
        align: [null, null, null],
        head: [[{ kind: 'text', text: 'a' }], [{ kind: 'text', text: 'b' }], [{ kind: 'text', text: 'c' }]],
        rows: [[[{ kind: 'text', text: 'x' }] satisfies Inline[], [], []]],
      },
    ]);
  });

  // Where the work is inside one regular expression the meter cannot see it: compare the time for n and 32n,
  // in the same run, each the best of a few tries taken in turn (linear is about 32x; the old expressions were
  // quadratic, 1024x). At 4n a linear 4x against a bound of 8 failed at 10x on a CI machine running two suites,
  // and at 8n a linear 8x against 24 failed at 29x: the bound leaves five times the linear ratio for noise.
  const lineFamilies: Record<string, (length: number) => string> = {
    'a heading of spaces before a line separator': (length) => `#${' '.repeat(length)}\u2028`,
    'a heading of spaces before a word': (length) => `# a${' '.repeat(length)}b`,
    'a fence followed by a backtick': (length) => `\`\`\`${'a'.repeat(length)}\``,
    'a list item of spaces before a line separator': (length) => `- ${' '.repeat(length)}\u2028`,
    'a table separator of spaces': (length) => `|\n-${' '.repeat(length)}x`,
  };

  it.each(Object.entries(lineFamilies))('[R12.12] %s parses in time linear in its length', (_, make) => {
    const best = (source: string) => {
      let fastest = Infinity;
      for (let round = 0; round < 5; round += 1) {
        const started = performance.now();
        let runs = 0;
        do {
          parsePreview(source);
          runs += 1;
        } while (performance.now() - started < 2);
        fastest = Math.min(fastest, (performance.now() - started) / runs);
      }
      return fastest;
    };
    const small = make(1_250);
    const large = make(40_000);
    let fastestSmall = Infinity;
    let fastestLarge = Infinity;
    for (let turn = 0; turn < 3; turn += 1) {
      fastestSmall = Math.min(fastestSmall, best(small));
      fastestLarge = Math.min(fastestLarge, best(large));
    }
    expect(fastestLarge / fastestSmall).toBeLessThan(160);
  });
});

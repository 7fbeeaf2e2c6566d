import { describe, expect, it } from 'vitest';
import { highlight } from './code-highlight';
import { parseInline, parsePreview, type Block } from './preview-markdown';

const text = (value: string) => ({ kind: 'text', text: value }) as const;

describe('text previews, read as agents write them (R9.15)', () => {
  it('[R9.15] fenced code is code: the fences and their language are not text', () => {
    // The demo's "Versioned prefix" option.
    const blocks = parsePreview(
      '```ts\nconst key = `catalog:v3:product:${id}`;\nawait cache.set(key, product, { ttl: 3600 });\n```',
    );
    expect(blocks).toEqual([
      {
        kind: 'code',
        lang: 'ts',
        text: 'const key = `catalog:v3:product:${id}`;\nawait cache.set(key, product, { ttl: 3600 });',
      },
    ]);
    expect(parsePreview('~~~\nplain\n~~~~\nafter')).toEqual([
      { kind: 'code', lang: '', text: 'plain' },
      { kind: 'paragraph', lines: [[text('after')]] },
    ]);
    // An unclosed fence runs to the end; a longer closing fence closes it, a shorter one does not.
    expect(parsePreview('````md\n```\ninner\n```\n````')).toEqual([
      { kind: 'code', lang: 'md', text: '```\ninner\n```' },
    ]);
    expect(parsePreview('```sh\nnpm test')).toEqual([{ kind: 'code', lang: 'sh', text: 'npm test' }]);
  });

  it('[R9.15] headings, lists (nested, ordered, tasks), quotes and rules', () => {
    const blocks = parsePreview(
      '## Plan\n\n1. Migrate\n2. Backfill\n   - users\n   - orders\n\n- [x] tests\n- [ ] docs\n\n> keep the old table\n\n---',
    );
    expect(blocks).toEqual<Block[]>([
      { kind: 'heading', level: 2, inline: [text('Plan')] },
      {
        kind: 'list',
        ordered: true,
        start: 1,
        items: [
          { task: null, blocks: [{ kind: 'paragraph', lines: [[text('Migrate')]] }] },
          {
            task: null,
            blocks: [
              { kind: 'paragraph', lines: [[text('Backfill')]] },
              {
                kind: 'list',
                ordered: false,
                start: 1,
                items: [
                  { task: null, blocks: [{ kind: 'paragraph', lines: [[text('users')]] }] },
                  { task: null, blocks: [{ kind: 'paragraph', lines: [[text('orders')]] }] },
                ],
              },
            ],
          },
        ],
      },
      {
        kind: 'list',
        ordered: false,
        start: 1,
        items: [
          { task: true, blocks: [{ kind: 'paragraph', lines: [[text('tests')]] }] },
          { task: false, blocks: [{ kind: 'paragraph', lines: [[text('docs')]] }] },
        ],
      },
      { kind: 'quote', blocks: [{ kind: 'paragraph', lines: [[text('keep the old table')]] }] },
      { kind: 'rule' },
    ]);
    expect(parsePreview('3) third\n4) fourth')[0]).toMatchObject({ kind: 'list', ordered: true, start: 3 });
    // A marker needs a space after it.
    expect(parsePreview('-not a list\n*neither*')[0]).toMatchObject({ kind: 'paragraph' });
  });

  it('[R9.15] pipe tables, with their alignment and escaped pipes', () => {
    expect(parsePreview('| Key | TTL |\n|:----|----:|\n| `a\\|b` | 60 |\n| c |')).toEqual([
      {
        kind: 'table',
        align: ['left', 'right'],
        head: [[text('Key')], [text('TTL')]],
        rows: [
          [[{ kind: 'code', text: 'a|b' }], [text('60')]],
          [[text('c')], []],
        ],
      },
    ]);
  });

  it('[R9.15] what is drawn stays as drawn: box characters, rules and corners, columns aligned with spaces', () => {
    const box = '┌──────┐   ┌──────┐\n│ app  │──▶│ host │\n└──────┘   └──────┘';
    expect(parsePreview(box)).toEqual([{ kind: 'art', text: box }]);
    const ascii = '+-------+      +------+\n| phone | ---> | hub  |\n+-------+      +------+';
    expect(parsePreview(ascii)).toEqual([{ kind: 'art', text: ascii }]);
    const columns = 'name    size\nredis   12 MB\nsqlite  3 MB';
    expect(parsePreview(columns)).toEqual([{ kind: 'art', text: columns }]);
    expect(parsePreview('    indented\n      more')).toEqual([{ kind: 'art', text: 'indented\n  more' }]);
    // Code pasted without a fence keeps its indentation.
    const sql = 'CREATE TABLE cache (\n  k TEXT PRIMARY KEY,\n  v BLOB\n);';
    expect(parsePreview(sql)).toEqual([{ kind: 'art', text: sql }]);
    // Prose keeps its line breaks and wraps; a sentence with two spaces once is still prose.
    expect(parsePreview('First line.  Then more\nsecond line')).toEqual([
      { kind: 'paragraph', lines: [[text('First line.  Then more')], [text('second line')]] },
    ]);
  });

  it('[R9.15][R12.2] inline marks become text and emphasis; links their words; HTML stays text', () => {
    expect(parseInline('**bold** and *em*, ~~old~~, `code` and snake_case_name')).toEqual([
      { kind: 'strong', children: [text('bold')] },
      text(' and '),
      { kind: 'em', children: [text('em')] },
      text(', '),
      { kind: 'del', children: [text('old')] },
      text(', '),
      { kind: 'code', text: 'code' },
      text(' and snake_case_name'),
    ]);
    expect(parseInline('[docs](https://example.com) ![diagram](x.png) <b onclick=x>hi</b> 2 * 3 \\*no\\*')).toEqual([
      text('docs'),
      text(' '),
      text('diagram'),
      text(' <b onclick=x>hi</b> 2 * 3 *no*'),
    ]);
  });

  it('[R9.15] code is coloured by its language: comments, strings, numbers, keywords; unknown languages plainly', () => {
    expect(highlight('const ttl = 3600; // an hour\nlet s = "x";', 'ts')).toEqual([
      { text: 'const', kind: 'keyword' },
      { text: ' ' },
      { text: 'ttl' },
      { text: ' = ' },
      { text: '3600', kind: 'number' },
      { text: '; ' },
      { text: '// an hour', kind: 'comment' },
      { text: '\n' },
      { text: 'let', kind: 'keyword' },
      { text: ' ' },
      { text: 's' },
      { text: ' = ' },
      { text: '"x"', kind: 'string' },
      { text: ';' },
    ]);
    expect(highlight('SELECT k FROM cache -- all', 'sql').map((token) => token.kind)).toEqual([
      'keyword',
      undefined,
      undefined,
      undefined,
      'keyword',
      undefined,
      undefined,
      undefined,
      'comment',
    ]);
    expect(highlight('anything at all', 'brainfuck')).toEqual([{ text: 'anything at all' }]);
    expect(highlight('constructor', 'constructor')).toEqual([{ text: 'constructor' }]);
  });
});

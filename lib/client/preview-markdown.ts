// R9.15: a text preview read the way agents write it — markdown with fenced code, lists, headings, tables, and
// ASCII diagrams — parsed into blocks the card renders as React elements (components/card/preview-text.tsx).
// Nothing here becomes HTML: every character reaches the screen as text, so a preview cannot carry markup.

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong' | 'em' | 'del'; children: Inline[] };

export type Align = 'left' | 'center' | 'right' | null;

export interface ListItem {
  /** A task list's box: true ticked, false open, null none. */
  task: boolean | null;
  blocks: Block[];
}

export type Block =
  | { kind: 'heading'; level: number; inline: Inline[] }
  /** Prose: wraps; its line breaks are kept, as written. */
  | { kind: 'paragraph'; lines: Inline[][] }
  /** Laid out with spaces or drawn (a diagram, a mockup, aligned columns): monospaced, unwrapped. */
  | { kind: 'art'; text: string }
  | { kind: 'code'; lang: string; text: string }
  | { kind: 'list'; ordered: boolean; start: number; items: ListItem[] }
  | { kind: 'table'; align: Align[]; head: Inline[][]; rows: Inline[][][] }
  | { kind: 'quote'; blocks: Block[] }
  | { kind: 'rule' };

const FENCE = /^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const LIST_ITEM = /^( *)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$/;
const TABLE_SEPARATOR = /^ *\|? *:?-+:? *(?:\| *:?-+:? *)*\|? *$/;
const INDENTED = /^(?: {4}|\t)/;
const BLANK = /^\s*$/;

/** Characters that draw: arrows, box drawing, blocks and geometric shapes. */
const DRAWING = /[\u2190-\u21ff\u2500-\u259f\u25a0-\u25ff]/;
/** A run of rule characters inside a line (`+---+`, `====`, `|__|`), or a corner joining one (`+-`, `-|`). */
const RULED = /[-=_+|]{3,}|[|+][-=]|[-=][|+]|^\s*\|/;

/**
 * Lines that read as laid out rather than written: drawing characters, rules and corners, a line indented by
 * two or more spaces (code pasted without a fence), a gap of three or more spaces between words or two-space
 * gaps on two lines (columns aligned by hand). Prose wraps; these do not.
 */
function isDrawn(lines: readonly string[]): boolean {
  const laidOut = (line: string) => DRAWING.test(line) || RULED.test(line) || /^ {2}|\S {3,}\S/.test(line);
  if (lines.some(laidOut)) return true;
  return lines.filter((line) => /\S {2}\S/.test(line)).length >= 2;
}

function isListItem(line: string): RegExpExecArray | null {
  return LIST_ITEM.exec(line);
}

function startsBlock(line: string, next: string | undefined): boolean {
  return (
    FENCE.test(line) ||
    HEADING.test(line) ||
    RULE.test(line) ||
    QUOTE.test(line) ||
    isListItem(line) !== null ||
    (line.includes('|') && next !== undefined && TABLE_SEPARATOR.test(next) && next.includes('-'))
  );
}

/** The preview's blocks, top to bottom. */
export function parsePreview(source: string): Block[] {
  return parseBlocks(source.replace(/\r\n?/g, '\n').split('\n'));
}

function parseBlocks(lines: readonly string[]): Block[] {
  const blocks: Block[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? '';
    if (BLANK.test(line)) {
      index += 1;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const [, indent = '', marker = '', lang = ''] = fence;
      const body: string[] = [];
      index += 1;
      // A fence closes with the same character, at least as long; an unclosed one runs to the end.
      const close = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
      while (index < lines.length && !close.test(lines[index] ?? '')) {
        const text = lines[index] ?? '';
        body.push(text.startsWith(indent) ? text.slice(indent.length) : text.trimStart());
        index += 1;
      }
      index += 1;
      blocks.push({ kind: 'code', lang, text: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1]?.length ?? 1, inline: parseInline(heading[2] ?? '') });
      index += 1;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ kind: 'rule' });
      index += 1;
      continue;
    }
    const next = lines[index + 1];
    if (line.includes('|') && next !== undefined && TABLE_SEPARATOR.test(next) && next.includes('-')) {
      const rows: string[] = [];
      index += 2;
      while (index < lines.length && (lines[index] ?? '').includes('|') && !BLANK.test(lines[index] ?? '')) {
        rows.push(lines[index] ?? '');
        index += 1;
      }
      blocks.push(table(line, next, rows));
      continue;
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (index < lines.length) {
        const match = QUOTE.exec(lines[index] ?? '');
        if (!match) break;
        quoted.push(match[1] ?? '');
        index += 1;
      }
      blocks.push({ kind: 'quote', blocks: parseBlocks(quoted) });
      continue;
    }
    if (isListItem(line)) {
      index = list(lines, index, blocks);
      continue;
    }
    if (INDENTED.test(line)) {
      const indented: string[] = [];
      while (index < lines.length && (INDENTED.test(lines[index] ?? '') || BLANK.test(lines[index] ?? ''))) {
        indented.push(lines[index] ?? '');
        index += 1;
      }
      while (indented.length > 0 && BLANK.test(indented[indented.length - 1] ?? '')) indented.pop();
      blocks.push({ kind: 'art', text: dedent(indented).join('\n') });
      continue;
    }
    const paragraph: string[] = [line];
    index += 1;
    while (
      index < lines.length &&
      !BLANK.test(lines[index] ?? '') &&
      !startsBlock(lines[index] ?? '', lines[index + 1])
    ) {
      paragraph.push(lines[index] ?? '');
      index += 1;
    }
    blocks.push(
      isDrawn(paragraph)
        ? { kind: 'art', text: paragraph.join('\n') }
        : { kind: 'paragraph', lines: paragraph.map((text) => parseInline(text.trim())) },
    );
  }
  return blocks;
}

/** One list from `start`: its items with what is indented under them (nested lists too); returns the next line. */
function list(lines: readonly string[], start: number, blocks: Block[]): number {
  const first = isListItem(lines[start] ?? '');
  const indent = first?.[1]?.length ?? 0;
  const ordered = /\d/.test(first?.[2] ?? '');
  const items: ListItem[] = [];
  let index = start;
  while (index < lines.length) {
    const match = isListItem(lines[index] ?? '');
    if (!match || (match[1]?.length ?? 0) !== indent || /\d/.test(match[2] ?? '') !== ordered) break;
    const content = indent + (match[2]?.length ?? 1) + 1;
    const body: string[] = [match[3] ?? ''];
    index += 1;
    while (index < lines.length) {
      const text = lines[index] ?? '';
      if (BLANK.test(text)) {
        // A blank line ends the item unless what follows is indented under it.
        const after = lines[index + 1];
        if (after === undefined || indentOf(after) < content) break;
        body.push('');
      } else if (indentOf(text) >= content || (indentOf(text) > indent && isListItem(text))) {
        body.push(text.slice(Math.min(content, indentOf(text))));
      } else if (!isListItem(text) && !startsBlock(text, lines[index + 1]) && indentOf(text) > indent) {
        body.push(text.trim());
      } else break;
      index += 1;
    }
    const task = /^\[([ xX])\]\s+/.exec(body[0] ?? '');
    if (task) body[0] = (body[0] ?? '').slice(task[0].length);
    items.push({ task: task ? task[1] !== ' ' : null, blocks: parseBlocks(body) });
  }
  blocks.push({ kind: 'list', ordered, start: ordered ? Number.parseInt(first?.[2] ?? '1', 10) : 1, items });
  return index;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function dedent(lines: readonly string[]): string[] {
  const indents = lines.filter((line) => !BLANK.test(line)).map(indentOf);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((line) => line.slice(cut));
}

function cells(row: string): string[] {
  let text = row.trim();
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|') && !text.endsWith('\\|')) text = text.slice(0, -1);
  const result: string[] = [];
  let current = '';
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at] ?? '';
    if (char === '\\' && text[at + 1] === '|') {
      current += '|';
      at += 1;
    } else if (char === '|') {
      result.push(current.trim());
      current = '';
    } else current += char;
  }
  result.push(current.trim());
  return result;
}

function table(headRow: string, separator: string, rows: readonly string[]): Block {
  const align: Align[] = cells(separator).map((cell) => {
    const left = cell.startsWith(':');
    const right = cell.endsWith(':');
    return left && right ? 'center' : right ? 'right' : left ? 'left' : null;
  });
  const width = align.length;
  const fit = (row: string) => {
    const values = cells(row).slice(0, width);
    while (values.length < width) values.push('');
    return values.map(parseInline);
  };
  return { kind: 'table', align, head: fit(headRow), rows: rows.map(fit) };
}

const EMPHASIS: { open: string; kind: 'strong' | 'em' | 'del' }[] = [
  { open: '**', kind: 'strong' },
  { open: '__', kind: 'strong' },
  { open: '~~', kind: 'del' },
  { open: '*', kind: 'em' },
  { open: '_', kind: 'em' },
];

/** Code spans, emphasis, links and images as their text; anything else, including HTML, stays as written. */
export function parseInline(source: string): Inline[] {
  const out: Inline[] = [];
  let text = '';
  const flush = () => {
    if (text) out.push({ kind: 'text', text });
    text = '';
  };
  let at = 0;
  while (at < source.length) {
    const char = source[at] ?? '';
    if (char === '\\' && at + 1 < source.length && /[!-/:-@[-`{-~]/.test(source[at + 1] ?? '')) {
      text += source[at + 1];
      at += 2;
      continue;
    }
    if (char === '`') {
      const run = /^`+/.exec(source.slice(at))?.[0] ?? '`';
      const end = source.indexOf(run, at + run.length);
      if (end > at) {
        flush();
        const code = source.slice(at + run.length, end);
        out.push({ kind: 'code', text: /^ .* $/.test(code) ? code.slice(1, -1) : code });
        at = end + run.length;
        continue;
      }
    }
    const link = /^!?\[([^\]]*)\]\(([^)\s]*)(?:\s+"[^"]*")?\)/.exec(source.slice(at));
    if (link) {
      // A preview cannot navigate or load anything (R12.2): a link is its words, an image its description.
      flush();
      out.push(...parseInline(link[1] ?? ''));
      at += link[0].length;
      continue;
    }
    const emphasis = EMPHASIS.find(({ open }) => source.startsWith(open, at));
    if (emphasis) {
      const { open, kind } = emphasis;
      const inner = at + open.length;
      const end = source.indexOf(open, inner + 1);
      // Emphasis hugs its words ("*a b*", not "a * b"); an underscore inside a word (snake_case) stays.
      const hugs = end > inner && source[inner] !== ' ' && source[end - 1] !== ' ';
      const intraword =
        open[0] === '_' && (/\w/.test(source[at - 1] ?? '') || /\w/.test(source[end + open.length] ?? ''));
      if (hugs && !intraword) {
        flush();
        out.push({ kind, children: parseInline(source.slice(inner, end)) });
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

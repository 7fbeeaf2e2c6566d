// R9.15: a text preview read the way agents write it — markdown with fenced code, lists, headings, tables, and
// ASCII diagrams — parsed into blocks the card renders as React elements (components/card/preview-text.tsx).
// Nothing here becomes HTML: every character reaches the screen as text, so a preview cannot carry markup.

import { parseInline, type Inline, type Meter } from './preview-inline';

export { parseInline, type Inline, type Meter } from './preview-inline';

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

/**
 * How deep quotes and lists nest (R12.12): each level is a call and a pass over what it holds, so 10,000 `> `
 * on one line would overflow the stack. What lies deeper shows as written, monospaced.
 */
export const PREVIEW_NESTING_MAX = 16;
/**
 * Cells all of a preview's tables may have, beyond the characters it holds (R12.12): a short row is padded to
 * the table's width, so a wide separator over thousands of one-character rows would be millions of cells. A
 * table past what is left shows as written, monospaced.
 */
export const PREVIEW_TABLE_CELLS_SPARE = 1_000;

// Each expression has one way to match a line, so none backtracks on a long one (R12.12).
const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})/;
const FENCE_LANG = /^\s*([^\s`]*)/;
const HEADING_OPEN = /^ {0,3}(#{1,6})(?=[ \t]|$)/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const LIST_ITEM = /^( *)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$/;
const TABLE_SEPARATOR = /^ *(?:\| *)?:?-+:? *(?:\| *:?-+:? *)*(?:\| *)?$/;
const INDENTED = /^(?: {4}|\t)/;
const BLANK = /^\s*$/;
/** What `.` does not match: a line holding one is no heading or list item, as when these were one expression. */
const LINE_BREAK = /[\r\u2028\u2029]/;

/** Characters that draw: arrows, box drawing, blocks and geometric shapes. */
const DRAWING = /[\u2190-\u21ff\u2500-\u259f\u25a0-\u25ff]/;
/** A run of rule characters inside a line (`+---+`, `====`, `|__|`), or a corner joining one (`+-`, `-|`). */
const RULED = /[-=_+|]{3,}|[|+][-=]|[-=][|+]|^\s*\|/;

/** One parse's bounds and its work, shared by every level. */
interface Parse {
  depth: number;
  cells: { left: number };
  meter: Meter | undefined;
}

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
  return LINE_BREAK.test(line) ? null : LIST_ITEM.exec(line);
}

function isSpace(char: string | undefined): boolean {
  return char === ' ' || char === '\t';
}

/** An opening fence: its indent, its marker and the language after it (no backtick may follow a marker). */
function fenceOf(line: string): { indent: string; marker: string; lang: string } | null {
  const open = FENCE_OPEN.exec(line);
  if (!open) return null;
  const rest = line.slice(open[0].length);
  if (rest.includes('`')) return null;
  return { indent: open[1] ?? '', marker: open[2] ?? '', lang: FENCE_LANG.exec(rest)?.[1] ?? '' };
}

/** An ATX heading: its level and its text, without a closing run of `#` or the spaces around it. */
function headingOf(line: string): { level: number; text: string } | null {
  const open = HEADING_OPEN.exec(line);
  if (!open || LINE_BREAK.test(line)) return null;
  // Read from the end by hand: `[ \t]*$` would try every start in a long run of spaces.
  const text = line.slice(open[0].length).replace(/^[ \t]+/, '');
  let end = text.length;
  while (end > 0 && isSpace(text[end - 1])) end -= 1;
  let hashes = end;
  while (hashes > 0 && text[hashes - 1] === '#') hashes -= 1;
  let before = hashes;
  while (before > 0 && isSpace(text[before - 1])) before -= 1;
  if (hashes < end && before < hashes) end = before;
  return { level: open[1]?.length ?? 1, text: text.slice(0, end) };
}

function isTable(line: string, next: string | undefined): next is string {
  return line.includes('|') && next !== undefined && TABLE_SEPARATOR.test(next) && next.includes('-');
}

function startsBlock(line: string, next: string | undefined): boolean {
  return (
    fenceOf(line) !== null ||
    headingOf(line) !== null ||
    RULE.test(line) ||
    QUOTE.test(line) ||
    isListItem(line) !== null ||
    isTable(line, next)
  );
}

/** The preview's blocks, top to bottom. `meter`, when given, counts the characters looked at. */
export function parsePreview(source: string, meter?: Meter): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  return parseBlocks(lines, { depth: 0, cells: { left: source.length + PREVIEW_TABLE_CELLS_SPARE }, meter });
}

function parseBlocks(lines: readonly string[], parse: Parse): Block[] {
  const { meter } = parse;
  const look = (line: string) => {
    if (meter) meter.steps += line.length + 1;
    return line;
  };
  if (parse.depth >= PREVIEW_NESTING_MAX) {
    let first = 0;
    let end = lines.length;
    while (first < end && BLANK.test(look(lines[first] ?? ''))) first += 1;
    while (end > first && BLANK.test(look(lines[end - 1] ?? ''))) end -= 1;
    return first === end ? [] : [{ kind: 'art', text: lines.slice(first, end).join('\n') }];
  }
  const inner = { ...parse, depth: parse.depth + 1 };
  const blocks: Block[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = look(lines[index] ?? '');
    if (BLANK.test(line)) {
      index += 1;
      continue;
    }
    const fence = fenceOf(line);
    if (fence) {
      const { indent, marker, lang } = fence;
      const body: string[] = [];
      index += 1;
      // A fence closes with the same character, at least as long; an unclosed one runs to the end.
      const close = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
      while (index < lines.length && !close.test(look(lines[index] ?? ''))) {
        const text = lines[index] ?? '';
        body.push(text.startsWith(indent) ? text.slice(indent.length) : text.trimStart());
        index += 1;
      }
      index += 1;
      blocks.push({ kind: 'code', lang, text: body.join('\n') });
      continue;
    }
    const heading = headingOf(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading.level, inline: parseInline(heading.text, meter) });
      index += 1;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ kind: 'rule' });
      index += 1;
      continue;
    }
    const next = lines[index + 1];
    if (isTable(line, next)) {
      const rows: string[] = [];
      index += 2;
      while (index < lines.length && (lines[index] ?? '').includes('|') && !BLANK.test(lines[index] ?? '')) {
        rows.push(look(lines[index] ?? ''));
        index += 1;
      }
      blocks.push(table(line, next, rows, parse));
      continue;
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (index < lines.length) {
        const match = QUOTE.exec(look(lines[index] ?? ''));
        if (!match) break;
        quoted.push(match[1] ?? '');
        index += 1;
      }
      blocks.push({ kind: 'quote', blocks: parseBlocks(quoted, inner) });
      continue;
    }
    if (isListItem(line)) {
      index = list(lines, index, blocks, inner);
      continue;
    }
    if (INDENTED.test(line)) {
      const indented: string[] = [];
      while (index < lines.length && (INDENTED.test(lines[index] ?? '') || BLANK.test(lines[index] ?? ''))) {
        indented.push(look(lines[index] ?? ''));
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
      !BLANK.test(look(lines[index] ?? '')) &&
      !startsBlock(lines[index] ?? '', lines[index + 1])
    ) {
      paragraph.push(lines[index] ?? '');
      index += 1;
    }
    blocks.push(
      isDrawn(paragraph)
        ? { kind: 'art', text: paragraph.join('\n') }
        : { kind: 'paragraph', lines: paragraph.map((text) => parseInline(text.trim(), meter)) },
    );
  }
  return blocks;
}

/** One list from `start`: its items with what is indented under them (nested lists too); returns the next line. */
function list(lines: readonly string[], start: number, blocks: Block[], parse: Parse): number {
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
      if (parse.meter) parse.meter.steps += text.length + 1;
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
    items.push({ task: task ? task[1] !== ' ' : null, blocks: parseBlocks(body, parse) });
  }
  blocks.push({ kind: 'list', ordered, start: ordered ? Number.parseInt(first?.[2] ?? '1', 10) : 1, items });
  return index;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function dedent(lines: readonly string[]): string[] {
  let cut = Infinity;
  for (const line of lines) if (!BLANK.test(line)) cut = Math.min(cut, indentOf(line));
  if (cut === Infinity) cut = 0;
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

function table(headRow: string, separator: string, rows: readonly string[], parse: Parse): Block {
  const align: Align[] = cells(separator).map((cell) => {
    const left = cell.startsWith(':');
    const right = cell.endsWith(':');
    return left && right ? 'center' : right ? 'right' : left ? 'left' : null;
  });
  const width = align.length;
  const total = width * (rows.length + 1);
  if (total > parse.cells.left) return { kind: 'art', text: [headRow, separator, ...rows].join('\n') };
  parse.cells.left -= total;
  const fit = (row: string) => {
    const values = cells(row).slice(0, width);
    while (values.length < width) values.push('');
    return values.map((value) => parseInline(value, parse.meter));
  };
  return { kind: 'table', align, head: fit(headRow), rows: rows.map(fit) };
}

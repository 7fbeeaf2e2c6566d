// A preview's fenced code, coloured the little that helps at a glance: comments, strings, numbers, keywords
// (R9.15). A regular expression per family of languages, not a grammar: a few hundred bytes in the card's chunk.

export type TokenKind = 'comment' | 'string' | 'number' | 'keyword';

export interface Token {
  text: string;
  kind?: TokenKind;
}

interface Family {
  comments: readonly string[];
  keywords: ReadonlySet<string>;
}

const words = (list: string) => new Set(list.split(' '));
const PROGRAM = words(
  'abstract as async await break case catch class const continue def default defer del delete do elif else enum ' +
    'except export extends false final finally fn for from func function go if impl implements import in instanceof ' +
    'interface is lambda let loop match mod module mut new nil none not null of or package pass private protected ' +
    'pub public raise readonly return self static struct super switch this throw trait true try type typeof ' +
    'undefined unless use val var void where while with yield',
);
const SHELL = words('if then else elif fi for in do done while case esac function return local export echo exit set');
const SQL = words(
  'select from where insert into update delete values create table index primary key references alter drop on ' +
    'join left right inner outer group by order limit having set begin commit rollback and or not null as distinct ' +
    'text integer int blob real boolean default unique',
);

/** Which comments and keywords a language has, by the names agents put after the fence. */
const FAMILIES = new Map<string, Family>();
function family(names: string, comments: readonly string[], keywords: ReadonlySet<string>): void {
  for (const name of names.split(' ')) FAMILIES.set(name, { comments, keywords });
}
family(
  'ts tsx typescript js jsx javascript mjs cjs json jsonc java c h cpp cc cs csharp go rust rs swift kotlin kt scala php dart css scss',
  ['//'],
  PROGRAM,
);
family('py python yaml yml toml ini rb ruby r perl pl dockerfile make makefile nix', ['#'], PROGRAM);
family('sh bash zsh shell console', ['#'], SHELL);
family('sql psql mysql sqlite postgres postgresql', ['--'], SQL);

function tokenizer(comments: readonly string[]): RegExp {
  const parts = [];
  if (comments.includes('//')) parts.push('//[^\\n]*', '/\\*[\\s\\S]*?(?:\\*/|$)');
  if (comments.includes('#')) parts.push('#[^\\n]*');
  if (comments.includes('--')) parts.push('--[^\\n]*');
  const comment = `(${parts.join('|')})`;
  const string = '("(?:[^"\\\\\\n]|\\\\.)*"?|\'(?:[^\'\\\\\\n]|\\\\.)*\'?|`(?:[^`\\\\]|\\\\.)*`?)';
  const number = '(\\b\\d[\\d_]*(?:\\.\\d+)?(?:e[+-]?\\d+)?\\b|\\b0x[\\da-f]+\\b)';
  const word = '([A-Za-z_$][\\w$]*)';
  return new RegExp(`${comment}|${string}|${number}|${word}`, 'gi');
}

/** `code` in tokens for a language named `lang` (as after a fence); unknown languages are one plain token. */
export function highlight(code: string, lang: string): Token[] {
  const found = FAMILIES.get(lang.toLowerCase());
  if (!found) return [{ text: code }];
  const { comments, keywords } = found;
  const tokens: Token[] = [];
  let last = 0;
  for (const match of code.matchAll(tokenizer(comments))) {
    const at = match.index;
    if (at > last) tokens.push({ text: code.slice(last, at) });
    const [text, comment, string, number, word] = match;
    const kind: TokenKind | undefined = comment
      ? 'comment'
      : string
        ? 'string'
        : number
          ? 'number'
          : word && keywords.has(word.toLowerCase())
            ? 'keyword'
            : undefined;
    tokens.push(kind ? { text, kind } : { text });
    last = at + text.length;
  }
  if (last < code.length) tokens.push({ text: code.slice(last) });
  return tokens;
}

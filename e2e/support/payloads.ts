import { type AskUserQuestionInputLike, type FormField, type FormInput } from '../../lib/contracts';

export const STORAGE_QUESTION = 'Which storage engine should the cache use?';

/** One single-select question with a recommended option. */
export const singleQuestion: AskUserQuestionInputLike = {
  questions: [
    {
      question: STORAGE_QUESTION,
      header: 'Storage',
      multiSelect: false,
      options: [
        { label: 'Redis (Recommended)', description: 'In-memory, shared by all workers.' },
        { label: 'SQLite', description: 'One file per worker, no extra service.' },
        { label: 'Memcached', description: 'Simple and fast, no persistence.' },
      ],
    },
  ],
};

export const threeQuestions: AskUserQuestionInputLike = {
  questions: [
    {
      question: 'Which database should we use?',
      header: 'Database',
      multiSelect: false,
      options: [
        { label: 'Postgres (Recommended)', description: 'Relational, mature, JSONB.' },
        { label: 'MySQL', description: 'Widely hosted.' },
      ],
    },
    {
      question: 'Which features should ship first?',
      header: 'Features',
      multiSelect: true,
      options: [
        { label: 'Search', description: 'Full-text search over notes.' },
        { label: 'Export', description: 'Download as Markdown.' },
        { label: 'Sharing', description: 'Share read-only links.' },
      ],
    },
    {
      question: 'What should the CLI be called?',
      header: 'Name',
      multiSelect: false,
      options: [
        { label: 'notes', description: 'Short and plain.' },
        { label: 'nt', description: 'Two letters.' },
      ],
    },
  ],
};

export const SQL_PREVIEW = 'CREATE TABLE cache (\n  k TEXT PRIMARY KEY,\n  v BLOB\n);';

export const previewQuestion: AskUserQuestionInputLike = {
  questions: [
    {
      question: 'Which layout should the settings page use?',
      header: 'Layout',
      multiSelect: false,
      options: [
        { label: 'Table', description: 'Rows of key/value pairs.', preview: SQL_PREVIEW },
        {
          label: 'Cards (Recommended)',
          description: 'One card per group.',
          preview:
            '<div style="display:grid;gap:8px"><section style="border:1px solid #ccc;border-radius:8px;padding:8px"><b>Account</b><p>Name, email</p></section><section style="border:1px solid #ccc;border-radius:8px;padding:8px"><b>Privacy</b><p>Sharing</p></section></div>',
        },
      ],
    },
  ],
};

/** An ASCII diagram wider than a phone's preview box, as agents draw them (R9.15). */
export const DIAGRAM_PREVIEW = [
  '+-----------+      sha1(JSON.stringify(query))      +--------------------+',
  '| findBy*() | ------------------------------------> | catalog:q:<digest> |',
  '+-----------+                                       +--------------------+',
  '      |              a purge cannot name one product         ^',
  '      +------------------------------------------------------+',
].join('\n');

/** A pipe table with its columns aligned left, right and centred, then a task list (R9.15). */
export const TABLE_PREVIEW = [
  '| Key | TTL (s) | Purged |',
  '|:----|--------:|:------:|',
  '| `catalog:product:<id>` | 3600 | by table |',
  '| `catalog:list:<page>` | 300 | by table |',
  '',
  '- [x] Readable in redis-cli',
  '- [ ] One purge per version',
].join('\n');

/** Markdown previews as agents write them: a heading, fenced code with its language, a list; a diagram; a table (R9.15). */
export const markdownPreviewQuestion: AskUserQuestionInputLike = {
  questions: [
    {
      question: 'How should cache keys be built?',
      header: 'Cache keys',
      multiSelect: false,
      options: [
        {
          label: 'Versioned prefix (Recommended)',
          description: 'Bumping the version invalidates every key at once.',
          preview:
            '### Key format\n\n```ts\nconst key = `catalog:v3:product:${id}`;\nawait cache.set(key, product, { ttl: 3600 });\n```\n\n- One purge per version\n- Readable in redis-cli',
        },
        { label: 'Hash of query', description: 'Caches any query shape.', preview: DIAGRAM_PREVIEW },
        { label: 'Per-table namespace', description: 'Each table purges on its own.', preview: TABLE_PREVIEW },
      ],
    },
  ],
};

/** Previews that would run script or load something if any defence failed (R12.2). */
export function hostilePreviews(beacon: string): AskUserQuestionInputLike {
  return {
    questions: [
      {
        question: 'Which hostile preview should render?',
        header: 'Hostile',
        multiSelect: false,
        options: [
          {
            label: 'img onerror',
            description: 'event handler',
            preview: `<img src="x" onerror="window.parent.__pwned=1;alert(1)">`,
          },
          { label: 'remote img', description: 'network load', preview: `<p>hi</p><img src="${beacon}/img.png">` },
          {
            label: 'javascript link',
            description: 'js url',
            preview: `<a href="javascript:alert(1)">click</a><iframe src="${beacon}/frame"></iframe>`,
          },
          {
            label: 'svg + form',
            description: 'svg handler and a form',
            preview: `<svg><animate onbegin="alert(1)"/></svg><form action="${beacon}/form"><input name=a><button>go</button></form><object data="${beacon}/obj"></object><link rel="stylesheet" href="${beacon}/style.css"><div style="background:url(${beacon}/bg.png)">bg</div>`,
          },
        ],
      },
    ],
  };
}

/** What a test adds to one of the widget form's fields (a default, a limit, a title). */
type FieldExtra<Type extends FormField['type']> = Partial<Omit<Extract<FormField, { type: Type }>, 'name' | 'type'>>;

/**
 * The widget service's MCP form (R18.4): a color of two, a count, a notify switch and a note without a title;
 * each field takes what a test adds to it.
 */
export function widgetForm(
  extra: {
    color?: FieldExtra<'enum'>;
    count?: FieldExtra<'number' | 'integer'>;
    notify?: FieldExtra<'boolean'>;
    note?: FieldExtra<'string'>;
  } = {},
): FormInput {
  return {
    serverName: 'widgets',
    message: 'Configure the widget',
    mode: 'form',
    fields: [
      {
        name: 'color',
        title: 'Color',
        type: 'enum',
        multiple: false,
        required: true,
        options: [
          { value: 'red', label: 'Red' },
          { value: 'blue', label: 'Blue' },
        ],
        ...extra.color,
      },
      { name: 'count', title: 'How many', type: 'integer', required: true, ...extra.count },
      { name: 'notify', title: 'Notify me', type: 'boolean', required: false, ...extra.notify },
      { name: 'note', type: 'string', required: false, ...extra.note },
    ],
  };
}

/** The widget service's sign-in: an MCP page to open (mode url). */
export const SIGN_IN_PAGE: FormInput = {
  serverName: 'auth',
  message: 'Sign in to the widget service',
  mode: 'url',
  fields: [],
  url: 'https://widgets.example/authorize?state=1',
};

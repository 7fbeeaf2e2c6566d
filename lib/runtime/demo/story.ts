/** The agents of the demo session: a root agent, its reviewer subagent and the reviewer's tests subagent (R7). */
export type DemoAgentName = 'root' | 'reviewer' | 'tests';
export type DemoToolName = 'AskUserQuestion' | 'ExitPlanMode' | 'Bash';

/** One tool call of the scripted session, with what the agent says around it. */
export interface DemoStep {
  readonly id: string;
  readonly agent: DemoAgentName;
  /** The agent's message just before the call; it travels with the question as context (R9.10). */
  readonly say: string;
  readonly tool: DemoToolName;
  readonly input: Record<string, unknown>;
  /** Steps that must finish first (a plan is approved before the migration runs). */
  readonly dependsOn?: readonly string[];
  /** What the agent does next, given whether the call went through. */
  readonly after: (ok: boolean) => string;
}

export const DEMO_CWD = '/home/dev/shop-service';

const compactCard = `<div style="font-family:system-ui;border:1px solid #d0d7de;border-radius:12px;padding:12px;max-width:260px">
  <strong>Catalog cache</strong>
  <p style="margin:4px 0;color:#1a7f37">● Healthy · hit rate 94%</p>
  <button>Purge</button>
</div>`;

const detailedCard = `<div style="font-family:system-ui;border:1px solid #d0d7de;border-radius:12px;padding:12px;max-width:320px">
  <strong>Catalog cache</strong>
  <table style="width:100%;margin-top:6px;font-size:13px">
    <tr><td>Hit rate</td><td>94%</td></tr>
    <tr><td>Keys</td><td>12,408</td></tr>
    <tr><td>Memory</td><td>38 MB / 256 MB</td></tr>
    <tr><td>Last purge</td><td>4 min ago</td></tr>
  </table>
  <button>Purge all</button> <button>Purge category…</button>
</div>`;

const PLAN = `# Plan: cache layer for the product catalog

1. **CacheClient** (\`src/cache/client.ts\`): thin wrapper over the chosen backend with \`get\`, \`set\`, \`del\` and a circuit breaker, so a cache outage degrades to database reads.
2. **Read-through** in \`ProductRepository.findById\` and \`findByCategory\`, keys built as agreed with the reviewer.
3. **Invalidation**: publish \`product.updated\` from the admin API and purge matching keys.
4. **Migration** \`20240611_cache_invalidations\`: table that records purges for the admin card.
5. **Admin card** showing hit rate and a purge button.
6. **Tests** as scoped by the tests agent; CI job with a Redis service container.

Rollout behind the \`catalog_cache\` feature flag, enabled for 10% of traffic first.`;

/** The session's tool calls in story order; the runner keeps a few of them pending at once. */
export const DEMO_STORY: readonly DemoStep[] = [
  {
    id: 'cache-design',
    agent: 'root',
    say: "I've read the catalog service: product pages hit Postgres on every request (p95 420 ms). Before I add a cache layer I need three decisions that depend on your infrastructure and plans.",
    tool: 'AskUserQuestion',
    input: {
      questions: [
        {
          question: 'Which cache backend should the product catalog use?',
          header: 'Backend',
          multiSelect: false,
          options: [
            {
              label: 'Redis (Recommended)',
              description: 'Shared by all instances; you already run Redis for sessions.',
            },
            { label: 'In-process LRU', description: 'No new infrastructure, but each instance warms its own cache.' },
            { label: 'Memcached', description: 'Simple and fast; needs a new managed service.' },
          ],
        },
        {
          question: 'How should cached products be invalidated?',
          header: 'Invalidation',
          multiSelect: false,
          options: [
            { label: 'TTL only', description: 'Entries expire after 5 minutes; prices may be stale until then.' },
            { label: 'Purge on update', description: 'The admin API purges keys when a product changes.' },
            { label: 'Both', description: 'Purge on update, with a 1 hour TTL as a safety net.' },
          ],
        },
        {
          question: 'Which endpoints should be cached?',
          header: 'Endpoints',
          multiSelect: true,
          options: [
            { label: 'GET /products/:id', description: 'Product detail pages (62% of traffic).' },
            { label: 'GET /products', description: 'Category listings with filters.' },
            { label: 'GET /categories', description: 'The navigation tree; changes rarely.' },
            { label: 'GET /search', description: 'Search results; high cardinality, low hit rate.' },
          ],
        },
      ],
    },
    after: (ok) =>
      ok
        ? 'Thanks. Writing src/cache/client.ts and the read-through in ProductRepository.'
        : 'Going with Redis, purge on update and the detail endpoint, the conventional setup.',
  },
  {
    id: 'cache-keys',
    agent: 'reviewer',
    say: 'Reviewing the draft CacheClient. The key format decides how precisely we can purge later, and both options below are reasonable.',
    tool: 'AskUserQuestion',
    input: {
      questions: [
        {
          question: 'How should cache keys be built?',
          header: 'Cache keys',
          multiSelect: false,
          options: [
            {
              label: 'Versioned prefix (Recommended)',
              description: 'Bumping the version invalidates every key at once after a schema change.',
              preview:
                '```ts\nconst key = `catalog:v3:product:${id}`;\nawait cache.set(key, product, { ttl: 3600 });\n```',
            },
            {
              label: 'Hash of query',
              description: 'Caches any query shape, but a purge cannot target one product.',
              preview:
                '```ts\nconst key = `catalog:q:${sha1(JSON.stringify(query))}`;\nawait cache.set(key, rows, { ttl: 300 });\n```',
            },
          ],
        },
      ],
    },
    after: (ok) =>
      ok
        ? 'Applying the key format to findById and findByCategory; flagging one missing await in the purge path.'
        : 'Keeping the versioned prefix, the safer default.',
  },
  {
    id: 'test-scope',
    agent: 'tests',
    say: 'The reviewer asked me to cover the cache layer. Integration tests need a Redis container in CI (about +40 s per run), so I want your call on scope.',
    tool: 'AskUserQuestion',
    input: {
      questions: [
        {
          question: 'Which kinds of tests should cover the cache layer?',
          header: 'Test scope',
          multiSelect: true,
          options: [
            { label: 'Unit tests', description: 'CacheClient and key building with an in-memory fake.' },
            { label: 'Integration (Redis)', description: 'Real Redis in a service container; slower CI.' },
            { label: 'Load test', description: 'k6 script comparing p95 with and without the cache.' },
          ],
        },
      ],
    },
    after: (ok) =>
      ok ? 'Writing the tests now: 14 cases so far, all green locally.' : 'Writing unit tests only for now.',
  },
  {
    id: 'admin-card',
    agent: 'root',
    say: 'The admin dashboard needs a cache status card so support can purge by hand. Here are two layouts; the rest of the dashboard uses compact cards.',
    tool: 'AskUserQuestion',
    input: {
      questions: [
        {
          question: 'Which layout should the cache status card use?',
          header: 'Admin card',
          multiSelect: false,
          options: [
            {
              label: 'Compact (Recommended)',
              description: 'Health and one purge button; matches the other cards.',
              preview: compactCard,
            },
            {
              label: 'Detailed',
              description: 'Hit rate, key count, memory and purge by category.',
              preview: detailedCard,
            },
          ],
        },
      ],
    },
    after: (ok) =>
      ok
        ? 'Building the card component in admin/src/cards/CacheStatus.tsx.'
        : 'Building the compact card to match the dashboard.',
  },
  {
    id: 'plan',
    agent: 'root',
    say: 'I have everything I need for the plan. Presenting it for your approval before I touch the database.',
    tool: 'ExitPlanMode',
    dependsOn: ['cache-design', 'cache-keys'],
    input: { plan: PLAN },
    after: (ok) => (ok ? 'Plan approved. Starting with the migration.' : 'Revising the plan with your feedback.'),
  },
  {
    id: 'migrate',
    agent: 'root',
    say: 'The migration adds the cache_invalidations table. It runs against your local database only.',
    tool: 'Bash',
    dependsOn: ['plan'],
    input: {
      command: 'npm run migrate',
      description: 'Apply migration 20240611_cache_invalidations to the local database',
    },
    after: (ok) =>
      ok
        ? 'Migration applied. Wiring the purge publisher next.'
        : 'Skipping the migration; I will describe it in the summary so you can run it yourself.',
  },
  {
    id: 'rollout',
    agent: 'root',
    dependsOn: ['migrate', 'test-scope'],
    say: 'Everything is implemented and tests pass. Last decision before I open the pull request.',
    tool: 'AskUserQuestion',
    input: {
      questions: [
        {
          question: 'How should the cache be rolled out?',
          header: 'Rollout',
          multiSelect: false,
          options: [
            {
              label: 'Flag at 10% (Recommended)',
              description: 'Enable catalog_cache for 10% of traffic and watch error rates.',
            },
            { label: 'Everyone at once', description: 'Simplest; a bad cache bug affects all users.' },
            { label: 'Staff only', description: 'Enable for internal accounts first, then widen manually.' },
          ],
        },
      ],
    },
    after: () => 'Opened pull request #482 "Add Redis cache layer to the product catalog". Session complete.',
  },
];

/** The mock shell output of the demo's Bash tool. */
export function simulatedCommandOutput(command: string): string {
  if (command === 'npm run migrate') {
    return '> shop-service@2.3.0 migrate\n> knex migrate:latest\n\nBatch 14 run: 1 migrations\n  20240611_cache_invalidations.ts';
  }
  return `$ ${command}\n(done)`;
}

import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier/flat';

/** Product files of `folder` may not import the `above` layers (lib/<layer>). */
function downwardOnly(folder, above) {
  return {
    files: [`${folder}/**`],
    ignores: ['**/*.test.ts', '**/test-support/**', '**/test-fixtures.ts', '**/test-helpers.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: above.flatMap((layer) => [`**/${layer}`, `**/${layer}/**`, `@/lib/${layer}`, `@/lib/${layer}/**`]),
              message: `${folder} imports only layers below it (contracts → core → protocol → runtime → host → bin)`,
            },
          ],
        },
      ],
    },
  };
}

const config = [
  ...nextVitals,
  ...nextTs,
  // Formatting is Prettier's job (`npm run format`); this turns off ESLint rules that would fight it.
  prettier,
  {
    ignores: [
      'node_modules/**',
      '.cache/**',
      '.next/**',
      'out/**',
      'dist/**',
      'public/sw.js',
      'test-results/**',
      'playwright-report/**',
      'next-env.d.ts',
    ],
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Layering (CONTRIBUTING.md): contracts import zod only; client code never imports host/runtime.
    files: ['lib/contracts/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../*', '@/*'], message: 'contracts import zod only' }] },
      ],
    },
  },
  // Server layers import only downward: contracts → core → protocol → runtime → host → bin. Tests and
  // test-support may reach up (a runtime test starts a real host).
  downwardOnly('lib/core', ['protocol', 'runtime', 'host', 'client']),
  downwardOnly('lib/protocol', ['runtime', 'host', 'client']),
  downwardOnly('lib/runtime', ['host', 'client']),
  downwardOnly('lib/host', ['client']),
  {
    // The hub knows no agent by name (R18.29): each agent's folder contributes its routes, bridges and status
    // lines through lib/runtime/hub-contribution.ts, and bin/commands/ composes them. Tests too: a host test
    // that needs an agent's part takes the CLI's composition. A rule of its own name, so the layering above stays.
    files: ['lib/host/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/runtime/agents', '**/runtime/agents/**', '@/lib/runtime/agents', '@/lib/runtime/agents/**'],
              message:
                'lib/host names no agent: add what the hub serves for one to its lib/runtime/agents/<agent>/hub-contribution.ts',
            },
          ],
        },
      ],
    },
  },
  {
    // lib/state is shared by the host and the PWA: pure, contracts only.
    files: ['lib/state/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // Anything but ../contracts, the folder's own files and vitest.
              regex: '^(?!\\.\\./contracts(/|$)|\\./|vitest$)',
              message: 'lib/state imports contracts only',
            },
          ],
        },
      ],
    },
  },
  {
    // The PWA imports only contracts and state (and browser libraries) from lib/. Its tests never reach a
    // bundle, so they may share the server side's test helpers.
    files: ['lib/client/**', 'components/**', 'app/**', 'hooks/**', 'lib/askUserQuestion.ts'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/test-support/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                ...['core', 'protocol', 'runtime', 'host'].flatMap((layer) => [
                  `**/${layer}`,
                  `**/${layer}/**`,
                  `@/lib/${layer}`,
                  `@/lib/${layer}/**`,
                ]),
                'better-sqlite3',
                'socket.io',
              ],
              message: 'server code must not reach the PWA bundle',
            },
          ],
        },
      ],
    },
  },
  {
    // The first screen (R13.4): what any route loads before it paints carries neither socket.io-client nor
    // zod. Screens reach the host through lib/client/connection-loader.ts, which loads the live modules
    // (ignored below) after the first paint, and settings and pairing load their requests when used; from the
    // contracts they take types, or values from a zod-free file (limits, preview, unknown, pairing-link,
    // push-constants, claude-code-answers).
    files: ['lib/client/**', 'components/**', 'app/**', 'hooks/**', 'lib/askUserQuestion.ts'],
    ignores: [
      '**/*.test.ts',
      '**/test-support/**',
      'lib/client/sw/**',
      'lib/client/app-connection.ts',
      'lib/client/connection.ts',
      'lib/client/answer-queue.ts',
      'lib/client/zod-csp.ts',
      'lib/client/push/push-client.ts',
      'lib/client/pair-request.ts',
      'lib/client/device-requests.ts',
      'lib/client/machine-requests.ts',
      'lib/client/team-api.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['socket.io-client', 'zod', 'zod/mini'].map((name) => ({
            name,
            message: 'not in the first screen: the live connection loads it after first paint (connection-loader.ts)',
          })),
          patterns: [
            {
              regex:
                '(^|/)contracts(/(index|wire|interaction|events|preferences|ask-user-question|claude-code-question|devices|pairing-api|machine-ref|machines|push|team-api|team-names|audit))?$',
              allowTypeImports: true,
              message:
                'these contracts load zod: import types with `type`, values from a zod-free file (limits, preview, unknown, pairing-link, push-constants, claude-code-answers)',
            },
            {
              regex:
                '(^|/)(app-connection|connection|answer-queue|push-client|pair-request|device-requests|machine-requests|team-api)$',
              allowTypeImports: true,
              message:
                'a live module (socket.io, zod): import it dynamically, as lib/client/connection-loader.ts does, not in the first screen',
            },
          ],
        },
      ],
    },
  },
  {
    // A promise nobody awaits loses its error, and an ack sent before its commit can lose an answer (R20.5): the
    // host, the bridges and the CLI await or hand on every one. Type-aware, so it reads the types of these folders only.
    files: ['lib/host/**/*.ts', 'lib/bridges/**/*.ts', 'bin/**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
];

export default config;

import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier/flat';

const config = [
  ...nextVitals,
  ...nextTs,
  // Formatting is Prettier's job (`npm run format`); this turns off ESLint rules that would fight it.
  prettier,
  {
    ignores: [
      'node_modules/**',
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
    // Layering (STYLE.md): contracts import zod only; client code never imports host/runtime.
    files: ['lib/contracts/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../*', '@/*'], message: 'contracts import zod only' }] },
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
    files: ['lib/client/**', 'components/**', 'app/**', 'lib/askUserQuestion.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/host/**', '**/runtime/**', '@/lib/host/*', '@/lib/runtime/*', 'better-sqlite3', 'socket.io'],
              message: 'server code must not reach the PWA bundle',
            },
          ],
        },
      ],
    },
  },
];

export default config;

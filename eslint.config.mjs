// One lint configuration for the whole monorepo. `npm run lint` runs it with zero warnings allowed.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/dev-dist/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  // ARCHITECTURE.md layout: dependencies point one way, apps and services → packages, never back, and the
  // API reaches ingest only through its composition root (main.ts). Test files and the test harnesses
  // compose like main.ts does, so they are exempt.
  ...importRules([
    {
      files: ['packages/ui/src/**/*.{ts,tsx}'],
      banned: ['@takt/api', '@takt/ingest', '@takt/db', '@takt/floor-pwa', '@takt/office'],
      paths: ['**/apps/**', '**/services/**', '**/packages/db/**'],
      message: 'packages/ui imports only packages/domain and React (ARCHITECTURE.md layout).',
    },
    {
      files: ['packages/db/src/**/*.ts'],
      banned: ['@takt/api', '@takt/ingest', '@takt/ui', '@takt/floor-pwa', '@takt/office'],
      paths: ['**/apps/**', '**/services/**', '**/packages/ui/**'],
      message: 'packages/db imports only packages/domain (ARCHITECTURE.md layout).',
    },
    {
      files: ['apps/**/*.{ts,tsx}'],
      banned: ['@takt/api', '@takt/ingest', '@takt/db', '@takt/floor-pwa', '@takt/office'],
      paths: ['**/services/**', '**/packages/db/**', '**/floor-pwa/**', '**/office/**'],
      message: 'apps never import services, the database layer or each other (ARCHITECTURE.md layout).',
    },
    {
      files: ['services/ingest/src/**/*.ts'],
      banned: ['@takt/api', '@takt/ui', '@takt/floor-pwa', '@takt/office'],
      paths: ['**/api/src/**', '**/apps/**', '**/packages/ui/**'],
      message: 'ingest never imports the API (packages/db holds what both need).',
    },
    {
      files: ['services/api/src/**/*.ts'],
      ignores: ['services/api/src/main.ts', 'services/api/src/ingest-thread.ts'],
      banned: ['@takt/ingest', '@takt/ui', '@takt/floor-pwa', '@takt/office'],
      paths: ['**/ingest/src/**', '**/apps/**', '**/packages/ui/**'],
      message:
        'only services/api/src/main.ts (the composition root) and ingest-thread.ts (the node ingest it starts) import ingest.',
    },
  ]),
  {
    // packages/domain is pure: no IO, no clock, no DOM, no Node APIs (ARCHITECTURE.md, STYLE.md).
    files: ['packages/domain/src/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'os', 'net', 'http', 'https', 'child_process', 'crypto'],
              message: 'packages/domain is pure: no Node APIs.',
            },
            {
              group: ['react', 'react-dom', 'dexie', 'kysely', 'hono', '@takt/*'],
              message: 'packages/domain depends on nothing of ours and no IO library.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'window', message: 'no DOM in domain' },
        { name: 'document', message: 'no DOM in domain' },
        { name: 'process', message: 'no Node APIs in domain' },
        { name: 'fetch', message: 'no IO in domain' },
        { name: 'setTimeout', message: 'no timers in domain' },
        { name: 'setInterval', message: 'no timers in domain' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'no clock reads in domain: pass now as a parameter' },
        { object: 'performance', property: 'now', message: 'no clock reads in domain' },
        { object: 'Math', property: 'random', message: 'domain is deterministic' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'no clock reads in domain: new Date() without an argument reads the clock',
        },
      ],
    },
  },
);

/**
 * One no-restricted-imports block per layer: `banned` package names and `paths` (relative imports reaching into
 * another layer). Test files and testing harnesses are exempt (they compose the layers like main.ts).
 */
function importRules(layers) {
  return layers.map(({ files, ignores = [], banned, paths, message }) => ({
    files,
    ignores: [
      ...ignores,
      '**/*.test.{ts,tsx}',
      '**/testing/**',
      '**/*-test-support.ts',
      '**/test-support.ts',
      '**/crash-worker.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: banned.flatMap((b) => [b, `${b}/*`]), message },
            { group: paths, message },
          ],
        },
      ],
    },
  }));
}

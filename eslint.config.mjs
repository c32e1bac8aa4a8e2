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

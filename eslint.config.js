import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import regexp from 'eslint-plugin-regexp';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'artifacts/', 'scratch/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.worker } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // Every pattern runs in linear time: the project reads pages, files, model replies and requests
    // it did not write, and one quadratic pattern on a long input froze the room server for 21 s.
    // (Tests and scripts read only what they wrote themselves.)
    files: ['src/**', 'workers/**', 'public/web/**', 'bench/**', 'experiments/**'],
    plugins: { regexp },
    rules: { 'regexp/no-super-linear-backtracking': 'error', 'regexp/no-super-linear-move': 'error' },
  },
  {
    // The bundled web suite's task scripts run in its pages, beside the runtime (lib/task.js) that defines `task`.
    files: ['public/web/**/*.js'],
    languageOptions: { globals: { task: 'readonly' } },
  },
);

// ESLint: the recommended rules of ESLint and typescript-eslint; formatting is prettier's (the
// prettier config turns the stylistic rules off). `npm run lint` runs both; `npm test` runs lint.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-output/**', '.loupe/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `_`-prefixed names are deliberately unused (destructuring out, callback positions)
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // type-aware rules where a silent mistake costs most: a switch over a union that misses a member,
    // a promise nobody awaits or catches, a promise where a callback's result is ignored
    files: ['src/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.test-kit.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // the viewer: plain ES modules run by the browser (socket.io's client script defines io)
    files: ['web/**/*.js'],
    languageOptions: { sourceType: 'module', globals: { ...globals.browser, io: 'readonly' } },
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts', '**/*.test-kit.ts'],
    languageOptions: { globals: { ...globals.jest } },
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);

// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'data/**', 'eslint.config.mjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/require-await': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      curly: ['error', 'all'],
      'no-console': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../*'], message: 'Import across folders with the absolute src/... path.' },
            {
              group: ['**/database/migrations', '**/database/migrations/**', './migrations/**'],
              message: 'Only migrations import migration code (docs/database.md).',
            },
          ],
          paths: [
            {
              name: '@nestjs/common',
              importNames: ['Body'],
              message: 'Receive a body with @ValidBody (src/common/validation/valid-body.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    // Migrations are frozen once applied: they import only typeorm, node built-ins and their frozen,
    // versioned helpers under ./support — never application code or another migration.
    files: ['src/database/migrations/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../*'], message: 'Migrations are self-contained (docs/database.md).' },
            {
              group: ['src/**', 'test/**'],
              message: 'Migrations never import application code, which changes; copy what they need.',
            },
            {
              group: ['./*', '!./support'],
              message: 'A migration never imports another migration; copy what it needs (docs/database.md).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'src/**/*.spec.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['bench/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);

// @ts-check
import tseslint from 'typescript-eslint';

const nodeModules = ['node:*', 'fs', 'path', 'os', 'child_process', 'http', 'net', 'crypto', 'stream', 'url'];
const noNode = {
  patterns: [{ group: nodeModules, message: 'browser/shared code must not import Node modules' }],
  paths: [{ name: 'electron', message: 'only electron/ may import electron' }],
};

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'coverage/**', 'test-results/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    files: ['bridge/**/*.ts'],
    ignores: ['bridge/page-agent/**', 'bridge/protocol/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'bridge/ runs headless: it must never import electron' }] },
      ],
    },
  },
  {
    files: ['bridge/protocol/**/*.ts', 'bridge/page-agent/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    // the Vite config runs in Node at build time, not in the window
    ignores: ['renderer/vite.config.ts'],
    rules: { 'no-restricted-imports': ['error', noNode] },
  },
  { files: ['scripts/**', 'bin/**', 'test/**', 'electron/**', '*.config.*'], rules: { 'no-console': 'off' } },
);

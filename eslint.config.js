// @ts-check
import tseslint from 'typescript-eslint';

const nodeModules = ['node:*', 'fs', 'path', 'os', 'child_process', 'http', 'net', 'crypto', 'stream', 'url'];
const noNode = {
  patterns: [{ group: nodeModules, message: 'browser/shared code must not import Node modules' }],
  paths: [{ name: 'electron', message: 'only electron/ may import electron' }],
};

const electronPath = { name: 'electron', message: 'bridge/ runs headless: it must never import electron' };
const edgeMessage =
  'the domain (asks, inbox, pages, agents, window) must not import the edges (mcp/, http/): give it a port or a domain error (bridge/errors.ts) instead';

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
      'no-restricted-imports': ['error', { paths: [electronPath] }],
    },
  },
  {
    // The import direction (docs/ARCHITECTURE.md): protocol <- domain <- edges. The domain (pages, requests, inbox,
    // asks, agents, the window hub) never reaches into the edges that serve it: MCP and HTTP plug into it.
    files: ['bridge/{asks,inbox,pages,agents,window}/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronPath],
          patterns: [{ group: ['**/mcp', '**/mcp/*'], message: edgeMessage }],
        },
      ],
    },
  },
  {
    // a capability's routes.ts (or <name>-routes.ts) is its HTTP edge, mounted in a trust zone (bridge/routes.ts): only it may use the
    // HTTP helpers (body parsing, SSE); it still never imports mcp/
    files: ['bridge/{asks,inbox,pages,agents,window}/**/*.ts'],
    ignores: ['bridge/*/routes.ts', 'bridge/*/*-routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronPath],
          patterns: [{ group: ['**/mcp', '**/mcp/*', '**/http', '**/http/*'], message: edgeMessage }],
        },
      ],
    },
  },
  {
    files: ['bridge/protocol/**/*.ts', 'bridge/page-agent/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    // the Vite config runs in Node at build time, not in the window
    ignores: ['renderer/vite.config.ts'],
    rules: { 'no-restricted-imports': ['error', noNode] },
  },
  {
    // the page agent's entry wires callbacks that run at once (watchDeparture) to the connection: nothing may
    // reach a binding before it exists (frames.ts and human/picker.ts still have forward references to clear)
    files: ['bridge/page-agent/index.ts'],
    rules: {
      '@typescript-eslint/no-use-before-define': [
        'error',
        { functions: false, typedefs: false, ignoreTypeReferences: true },
      ],
    },
  },
  { files: ['scripts/**', 'bin/**', 'test/**', 'electron/**', '*.config.*'], rules: { 'no-console': 'off' } },
);

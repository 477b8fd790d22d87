// @ts-check
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';
import { allowedImports } from './scripts/eslint-allowed-imports.js';

const nodeModules = ['node:*', 'fs', 'path', 'os', 'child_process', 'http', 'net', 'crypto', 'stream', 'url'];
const noNode = {
  patterns: [{ group: nodeModules, message: 'browser/shared code must not import Node modules' }],
  paths: [{ name: 'electron', message: 'only electron/ may import electron' }],
};

// What each part of bridge/ may import (docs/ARCHITECTURE.md "The import rule"), checked by
// scripts/eslint-allowed-imports.js. Entries: `bridge/x/` a folder, `bridge/x.ts` a file, `pkg` a package,
// `pkg/*` or `node:*` a prefix. Later rows override earlier ones for the files they name, so a file-level row
// (zod-names.ts, a routes.ts) comes after its folder's. Nothing here names `electron`: bridge/ runs headless.
const protocol = 'bridge/protocol/';
/** the root files everything may use: errors, ports, limits, the logger, config */
const kernel = [
  'bridge/config.ts',
  'bridge/credentials.ts',
  'bridge/errors.ts',
  'bridge/event-stream.ts',
  'bridge/limits.ts',
  'bridge/locate.ts',
  'bridge/log.ts',
  'bridge/loopback.ts',
  'bridge/private-files.ts',
  'bridge/process-alive.ts',
  'bridge/token.ts',
  'bridge/version.ts',
];
const domainWhy =
  'the domain never reaches into the edges that serve it (mcp/, http/) or into a folder above it; give it a port or a domain error (bridge/errors.ts) instead';
/** a capability's routes.ts (or <name>-routes.ts) is its HTTP edge, mounted in a trust zone by bridge/routes.ts */
const routeEdge = ['bridge/http/', 'koa', '@koa/router', 'ws', 'zod'];
const domain = (folder, below, extra = []) => [
  { files: [`${folder}**/*.ts`], allow: [folder, ...below, protocol, ...kernel, 'node:*', ...extra], why: domainWhy },
  {
    files: [`${folder}routes.ts`, `${folder}*-routes.ts`],
    allow: [folder, ...below, protocol, ...kernel, 'node:*', ...extra, ...routeEdge],
    why: "a capability's routes are its HTTP edge: the HTTP helpers, never mcp/",
  },
];
/** A layer of the page agent: its own folder, the layers under it (or beside it) it names, and the wire contract. */
const pageLayer = (folder, below, why, extra = []) => [
  {
    files: [`bridge/page-agent/${folder}**/*.ts`],
    allow: [`bridge/page-agent/${folder}`, ...below.map((b) => `bridge/page-agent/${b}`), protocol, ...extra],
    why,
  },
];
const importRules = [
  {
    // first, so that a new folder is refused until it has a row of its own
    files: ['bridge/**/*.ts'],
    allow: [],
    why: 'every folder of bridge/ names what it may import; this one has no row in eslint.config.js yet',
  },
  {
    files: ['bridge/protocol/**/*.ts'],
    allow: [protocol, 'zod'],
    why: 'the wire contract runs in Node, in the page and in the window alike: zod and nothing else',
  },
  // the page agent runs in the page's tab: the DOM and the wire contract, no Node, no bridge internals; inside it,
  // layers (dom < act < ui < commands) with watch/, human/ and link/ beside, so a gesture never imports a handler
  ...pageLayer('dom/', [], 'dom/ reads the page (roles, names, refs, targets, visibility) and imports no other layer'),
  ...pageLayer(
    'act/',
    ['dom/'],
    "act/ is a person's gestures (pointer, keys, values): it reads the page, it knows no widget",
  ),
  ...pageLayer(
    'ui/',
    ['act/', 'dom/'],
    'ui/ knows widgets by their pattern and drives them with gestures, never through a command handler',
  ),
  ...pageLayer(
    'watch/',
    ['dom/'],
    'watch/ records what the page does (console, errors, requests, navigation) and acts on nothing',
  ),
  ...pageLayer(
    'human/',
    ['watch/', 'dom/'],
    "human/ is the person's side (overlay, picker, source lines): it reads the page and the source maps watch/ keeps",
  ),
  ...pageLayer(
    'link/',
    ['dom/'],
    'link/ is the connection to the bridge (streams, result socket, frames) and knows no command',
  ),
  ...pageLayer(
    'commands/',
    ['ui/', 'act/', 'dom/', 'watch/', 'human/', 'link/'],
    'commands/ is the top layer: one handler per page command, over every layer below',
    ['modern-screenshot'],
  ),
  {
    files: ['bridge/page-agent/index.ts'],
    allow: ['bridge/page-agent/', protocol],
    why: "the page agent's entry wires the layers together",
  },
  {
    files: ['bridge/page-agent/zod-lite.ts'],
    allow: ['bridge/page-agent/zod-names.ts'],
    why: "zod-lite.ts is the page bundle's zod: the builders zod-names.ts picks",
  },
  {
    files: ['bridge/page-agent/zod-names.ts'],
    allow: ['zod/v4'],
    why: 'only zod-names.ts picks the zod builders the page bundle carries (scripts/build.js checks them)',
  },
  ...domain('bridge/images/', []),
  ...domain('bridge/agents/', []),
  ...domain('bridge/pages/', []),
  // the journal's files (the writer, the replay): fed by its owners, it knows none of them
  ...domain('bridge/journal/', []),
  ...domain('bridge/window/', ['bridge/agents/', 'bridge/pages/'], ['zod']),
  // pairing draws its QR code here (uqr), so the window carries no QR library
  ...domain('bridge/devices/', ['bridge/agents/'], ['uqr']),
  ...domain('bridge/inbox/', ['bridge/agents/', 'bridge/journal/', 'bridge/pages/', 'bridge/window/']),
  ...domain('bridge/asks/', ['bridge/images/', 'bridge/inbox/', 'bridge/journal/', 'bridge/pages/', 'bridge/window/']),
  {
    files: ['bridge/http/**/*.ts'],
    allow: ['bridge/http/', protocol, ...kernel, 'bridge/context.ts', 'koa', '@koa/router', 'zod', 'node:*'],
    why: 'the HTTP edge serves every capability through the context it is given, and knows no domain folder itself',
  },
  {
    files: ['bridge/mcp/**/*.ts'],
    allow: [
      'bridge/mcp/',
      'bridge/agents/',
      'bridge/asks/',
      'bridge/images/',
      'bridge/inbox/',
      'bridge/pages/',
      'bridge/window/',
      protocol,
      ...kernel,
      'bridge/context.ts',
      '@modelcontextprotocol/server',
      '@modelcontextprotocol/core',
      'zod',
      'node:*',
    ],
    why: 'the MCP edge calls the domain; HTTP only in mcp/routes.ts, its mount in the mcp zone',
  },
  {
    files: ['bridge/mcp/routes.ts'],
    allow: [
      'bridge/mcp/',
      'bridge/agents/',
      protocol,
      ...kernel,
      'bridge/context.ts',
      'bridge/http/',
      'koa',
      '@koa/router',
      '@modelcontextprotocol/server',
      '@modelcontextprotocol/core',
      'zod',
      'node:*',
    ],
    why: "mcp/routes.ts is the MCP endpoint's HTTP route",
  },
  {
    files: ['bridge/remote/**/*.ts'],
    allow: [
      'bridge/remote/',
      'bridge/agents/',
      'bridge/devices/',
      protocol,
      ...kernel,
      'bridge/context.ts',
      'bridge/startup-error.ts',
      'bridge/http/',
      'koa',
      '@koa/router',
      'node:*',
    ],
    why: 'the remote listener is an HTTP edge beside the local one: its server, its guards, the agent-token command and notifications, no MCP internals',
  },
  {
    files: ['bridge/shim/**/*.ts'],
    allow: [
      'bridge/shim/',
      protocol,
      'bridge/config.ts',
      // where the bridge is: the one rule the Vite plugin, agent-token and the window's snippets follow too
      'bridge/locate.ts',
      'bridge/log.ts',
      'bridge/version.ts',
      'bridge/mcp/tools/index.ts',
      'bridge/prove-peer.ts',
      'bridge/private-files.ts',
      'bridge/token.ts',
      // how long the client waits for a tool call, read from its own config (loaded after initialize is answered)
      'bridge/register/client-limits.ts',
      '@modelcontextprotocol/client',
      'node:*',
    ],
    why: "the stdio shim starts without the server: the tool registry (to check arguments), the token proof, its client's time-out setting, and nothing else of it",
  },
  {
    files: ['bridge/prove-peer.ts'],
    allow: [...kernel, 'node:*'],
    why: "the token proof's client runs in the shim and the desktop app: Node's http and the token's HMAC, nothing of the server",
  },
  {
    files: ['bridge/register/**/*.ts'],
    // whether the process that left a temporary file beside a config still runs: the same rule as the data dir's
    allow: ['bridge/register/', 'bridge/process-alive.ts', 'jsonc-parser', 'smol-toml', 'node:*'],
    why: "--register-shim edits MCP clients' config files and needs nothing of the running bridge",
  },
  {
    files: [...kernel, 'bridge/shutdown.ts', 'bridge/startup-error.ts'],
    allow: [protocol, ...kernel, 'node:*'],
    why: 'the shared root files are leaves every layer may use, so they import no layer',
  },
  {
    files: ['bridge/data-dir-lock.ts', 'bridge/port.ts'],
    allow: [protocol, ...kernel, 'bridge/startup-error.ts', 'node:*'],
    why: 'what aiti-bridge takes before it loads the server (the data dir lock, the port): leaves that stop the start with a StartupError',
  },
  {
    files: ['bridge/bridge.ts', 'bridge/context.ts', 'bridge/routes.ts'],
    allow: [
      'bridge/agents/',
      'bridge/asks/',
      'bridge/devices/',
      'bridge/http/',
      'bridge/images/',
      'bridge/inbox/',
      'bridge/journal/',
      'bridge/mcp/',
      'bridge/pages/',
      'bridge/remote/',
      'bridge/window/',
      protocol,
      ...kernel,
      'bridge/context.ts',
      'bridge/routes.ts',
      'bridge/shutdown.ts',
      'bridge/startup-error.ts',
      'bridge/data-dir-lock.ts',
      'bridge/port.ts',
      'node:*',
    ],
    why: 'the composition (createBridge, the zones, BridgeContext) wires the layers together, but never the page agent, the shim or the CLI',
  },
  {
    files: ['bridge/index.ts'],
    allow: ['bridge/bridge.ts', 'bridge/config.ts', 'bridge/startup-error.ts', protocol],
    why: "the package's public API: createBridge, its config and the wire contract",
  },
  {
    files: ['bridge/cli.ts'],
    allow: [
      'bridge/bridge.ts',
      'bridge/config.ts',
      'bridge/startup-error.ts',
      'bridge/data-dir-lock.ts',
      'bridge/port.ts',
      'bridge/version.ts',
      'bridge/shim/',
      'bridge/register/',
      'bridge/remote/agent-token-command.ts',
      'bridge/update-notice.ts',
      'node:*',
    ],
    why: 'the aiti-bridge command picks one mode and loads only it',
  },
  {
    files: ['bridge/update-notice.ts'],
    allow: ['node:*'],
    why: "the CLI's note of a newer version on npm: the registry and a file in the cache, nothing of the bridge",
  },
  {
    files: ['bridge/vite-plugin.ts'],
    allow: ['vite', 'bridge/locate.ts', 'bridge/config.ts', 'bridge/private-files.ts', 'node:*'],
    why: "the Vite plugin runs in the app's dev server, apart from the bridge: it finds the bridge by the same rule as the CLI (locate.ts)",
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'release/**',
      'node_modules/**',
      'coverage/**',
      'test-results/**',
      '**/.next/**',
      '**/.next-webpack/**',
      '**/next-env.d.ts',
      'reports/**',
      '.stryker-tmp*/**',
      // the real MCP clients scripts/install-clients.js installs for test/clients
      '.cache/**',
    ],
  },
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
    // agents, pages and devices write the text these regexes read: none may take more than linear time on it
    // (test/security/linear-text.test.ts fuzzes the renderer's markdown and the functions that read such text)
    files: ['bridge/**/*.ts', 'renderer/src/**/*.{ts,tsx}'],
    plugins: { regexp },
    rules: { 'regexp/no-super-linear-backtracking': 'error', 'regexp/no-super-linear-move': 'error' },
  },
  { plugins: { aiti: { rules: { 'allowed-imports': allowedImports } } } },
  ...importRules.map(({ files, allow, why }) => ({
    files,
    rules: { 'aiti/allowed-imports': ['error', { folder: files.join(', '), allow, why }] },
  })),
  {
    // the page build sees which zod builders a page-side file uses, and fails on one the bundle lacks, only through
    // a namespace import (scripts/page-bundle.js): `import { z }` would hide them
    files: ['bridge/protocol/**/*.ts', 'bridge/page-agent/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'] > ImportSpecifier",
          message:
            "write `import * as z from 'zod'`: the page build then checks that zod-names.ts exports every builder used",
        },
      ],
    },
  },
  {
    // a tool sends a page command only through mcp/page-command.ts (the gate, the descriptor's time-out), so a
    // descriptor's danger asks the human whichever tool sends the command (test/mcp/page-gate-every-tool.test.ts)
    files: ['bridge/mcp/**/*.ts'],
    ignores: ['bridge/mcp/page-command.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='send'][callee.object.property.name='requests']",
          message:
            'send page commands through sendPageCommand or runPageCommand (mcp/page-pipeline.ts): they pass the gate',
        },
        {
          selector: "CallExpression[callee.property.name='send'][callee.object.name='requests']",
          message:
            'send page commands through sendPageCommand or runPageCommand (mcp/page-pipeline.ts): they pass the gate',
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    // the Vite config runs in Node at build time, not in the window
    ignores: ['renderer/vite.config.ts'],
    rules: { 'no-restricted-imports': ['error', noNode] },
  },
  {
    // the page agent's entry wires callbacks that run at once (watchDeparture) to the connection: nothing may
    // reach a binding before it exists (link/frames.ts and human/picker.ts still have forward references to clear)
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

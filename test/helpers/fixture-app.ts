import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import angular from '@analogjs/vite-plugin-angular';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import vue from '@vitejs/plugin-vue';
import { chromium, type BrowserContext, type Page as Tab } from 'playwright-core';
import { createServer, type PluginOption } from 'vite';
import { inject } from 'vitest';
import { createBridge, type Bridge } from '../../bridge/bridge.js';
import { aitiBridge } from '../../bridge/vite-plugin.js';
import { sharedContext } from './browser.js';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.js';
import { startNext } from './next-server.js';

/** The component-library fixtures under test/fixtures/, each a small app that shows its own state. */
export type FixtureName =
  | 'mui-app'
  | 'radix-app'
  | 'antd-app'
  | 'vue-app'
  | 'svelte-app'
  | 'mantine-app'
  | 'hook-form-app'
  | 'aria-app'
  | 'chakra-app'
  | 'shadcn-app'
  | 'next-app'
  | 'angular-app'
  // the held-out set (test/fixtures-heldout): written from each library's docs after the page agent's changes
  | 'heldout-react'
  | 'heldout-vue'
  | 'heldout-svelte'
  | 'heldout-angular';

interface FixtureSpec {
  /** served by Vite with these plugins, or by `next dev` */
  plugins: () => PluginOption[];
  next?: true;
  /** pre-bundled at start: a dependency found later makes Vite reload the page under the test */
  deps: string[];
  /** its folder, when it is not test/fixtures/<name> */
  root?: string;
}

const REACT_DEPS = ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime', 'react/jsx-dev-runtime'];

const FIXTURES: Record<FixtureName, FixtureSpec> = {
  'mui-app': {
    plugins: () => [react()],
    deps: [
      ...REACT_DEPS,
      ...[
        'Autocomplete',
        'Button',
        'Checkbox',
        'Dialog',
        'DialogActions',
        'DialogContent',
        'DialogContentText',
        'DialogTitle',
        'FormControl',
        'FormControlLabel',
        'FormLabel',
        'InputLabel',
        'MenuItem',
        'Radio',
        'RadioGroup',
        'Select',
        'Stack',
        'Switch',
        'TextField',
      ].map((name) => `@mui/material/${name}`),
    ],
  },
  'radix-app': { plugins: () => [react()], deps: [...REACT_DEPS, '@radix-ui/react-select', '@headlessui/react'] },
  'antd-app': { plugins: () => [react()], deps: [...REACT_DEPS, 'antd'] },
  'vue-app': { plugins: () => [vue()], deps: ['vue'] },
  'next-app': { plugins: () => [], deps: [], next: true },
  'angular-app': {
    plugins: () => [
      asApp(() =>
        angular({ tsconfig: fileURLToPath(new URL('../fixtures/angular-app/tsconfig.app.json', import.meta.url)) }),
      ),
    ],
    // the Angular plugin links and pre-bundles Angular's packages itself
    deps: [],
  },
  'mantine-app': {
    plugins: () => [react()],
    deps: [...REACT_DEPS, '@mantine/core', '@mantine/dates', '@mantine/form', '@mantine/hooks', 'dayjs'],
  },
  'hook-form-app': {
    plugins: () => [react()],
    deps: [...REACT_DEPS, 'react-hook-form', 'react-select', 'react-datepicker', 'date-fns'],
  },
  'aria-app': { plugins: () => [react()], deps: [...REACT_DEPS, 'react-aria-components'] },
  'chakra-app': { plugins: () => [react()], deps: [...REACT_DEPS, '@chakra-ui/react', 'react-hook-form'] },
  'shadcn-app': {
    plugins: () => [react(), tailwindcss()],
    deps: [
      ...REACT_DEPS,
      'radix-ui',
      'cmdk',
      'react-day-picker',
      'react-hook-form',
      'lucide-react',
      'date-fns',
      'clsx',
      'tailwind-merge',
      'class-variance-authority',
    ],
  },
  'heldout-react': {
    root: '../fixtures-heldout/react-app',
    plugins: () => [react()],
    deps: [
      ...REACT_DEPS,
      '@headlessui/react',
      '@mui/material/Button',
      '@mui/material/Dialog',
      '@mui/material/DialogActions',
      '@mui/material/DialogContent',
      '@mui/material/DialogTitle',
      '@mui/material/Stack',
      '@mui/x-date-pickers/AdapterDayjs',
      '@mui/x-date-pickers/DatePicker',
      '@mui/x-date-pickers/LocalizationProvider',
      '@mui/x-date-pickers/TimePicker',
      'dayjs',
      'ag-grid-community',
      'ag-grid-react',
      '@tanstack/react-table',
      '@dnd-kit/core',
      '@dnd-kit/sortable',
      '@dnd-kit/utilities',
    ],
  },
  'heldout-vue': {
    root: '../fixtures-heldout/vue-app',
    plugins: () => [vue()],
    deps: [
      'vue',
      'vuetify',
      'vuetify/components',
      'vuetify/directives',
      'primevue/config',
      '@primeuix/themes/aura',
      ...['autocomplete', 'button', 'datepicker', 'dialog', 'inputnumber', 'multiselect', 'select', 'toggleswitch'].map(
        (name) => `primevue/${name}`,
      ),
      'element-plus',
    ],
  },
  'heldout-svelte': {
    root: '../fixtures-heldout/svelte-app',
    plugins: () => [svelte()],
    deps: [
      'svelte',
      'svelte/internal/client',
      'svelte/internal/disclose-version',
      'bits-ui',
      '@internationalized/date',
    ],
  },
  'heldout-angular': {
    root: '../fixtures-heldout/angular-app',
    plugins: () => [
      asApp(() =>
        angular({
          tsconfig: fileURLToPath(new URL('../fixtures-heldout/angular-app/tsconfig.app.json', import.meta.url)),
        }),
      ),
    ],
    deps: [],
  },
  'svelte-app': {
    plugins: () => [svelte()],
    deps: ['svelte', 'svelte/internal/client', 'svelte/internal/disclose-version'],
  },
};

/**
 * The Angular plugin compiles for unit tests (JIT, no browser app) when it sees it runs under vitest: the fixture
 * is an app served to a browser, so it is made as a dev server would make it.
 */
function asApp<T>(make: () => T): T {
  const saved = { VITEST: process.env.VITEST, NODE_ENV: process.env.NODE_ENV };
  delete process.env.VITEST;
  process.env.NODE_ENV = 'development';
  try {
    return make();
  } finally {
    for (const [key, value] of Object.entries(saved))
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
  }
}

/**
 * One fixture world per test file: a bridge on port 0, the fixture served by a real Vite dev server with the
 * @aiti-ai/aiti-bridge/vite plugin, and one headless Chromium. Started in beforeAll and closed in afterAll, so a file pays
 * for Vite's dependency bundling and the browser start once; each test opens its own tab (its own page).
 */
export interface FixtureWorld {
  bridge: Bridge;
  /** the app's URL on the Vite dev server */
  url: string;
  /** the fixture's directory (the Vite root, where data-source paths start) */
  root: string;
  browser: BrowserContext;
  /** the next file the editor command was asked to open (`file:line:column`), waiting up to 5 s */
  opened(): Promise<string>;
  /** a new tab on the app, once its page agent is connected; returns the tab */
  open(path?: string): Promise<Tab>;
  close(): Promise<void>;
}

/** A dev server of the fixture: Vite with the bridge's plugin, or `next dev` with the root layout's script tag. */
async function serve(
  name: FixtureName,
  spec: FixtureSpec,
  root: string,
  scratch: string,
  bridge: Bridge,
  bundler: 'turbopack' | 'webpack',
): Promise<{ url: string; close(): Promise<void> }> {
  if (spec.next) return startNext(root, bridge.url, bundler);
  const server = await createServer({
    root,
    configFile: false,
    logLevel: 'silent',
    cacheDir: join(scratch, 'vite-cache'),
    plugins: [...spec.plugins(), aitiBridge({ bridgeUrl: bridge.url })],
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false, watch: null },
    optimizeDeps: { include: spec.deps },
  });
  await server.listen();
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error(`the Vite dev server of ${name} did not report its URL`);
  return { url, close: () => server.close() };
}

export async function startFixture(
  name: FixtureName,
  options: { bundler?: 'turbopack' | 'webpack' } = {},
): Promise<FixtureWorld> {
  const spec = FIXTURES[name];
  const root = fileURLToPath(new URL(spec.root ?? `../fixtures/${name}`, import.meta.url));
  const scratch = mkdtempSync(join(tmpdir(), `aiti-${name}-`));
  // the editor Alt+click runs: a script that records what it was asked to open
  const record = join(scratch, 'opened.json');
  const editor = join(scratch, 'editor.cjs');
  writeFileSync(
    editor,
    `require('fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)))`,
  );
  const bridge = await createBridge({
    port: 0,
    dataDir: join(scratch, 'data'),
    openCmd: `"${process.execPath}" "${editor}" --goto {file}:{line}:{column}`,
  });
  const server = await serve(name, spec, root, scratch, bridge, options.bundler ?? 'turbopack');
  const url = server.url;
  // a context of the run's shared Chromium when it has one (test/helpers/browser.ts), else a Chromium of its own
  const shared = inject('chromiumEndpoint');
  const browser = shared
    ? await sharedContext(shared, { viewport: { width: 1280, height: 900 } })
    : await chromium.launchPersistentContext(join(scratch, 'profile'), {
        executablePath: chromiumPath(),
        headless: true,
        args: CHROMIUM_ARGS,
        viewport: { width: 1280, height: 900 },
      });
  // the first load waits for Vite's dependency bundling (seconds for antd): pay it here, not in a test
  const warm = await browser.newPage();
  await warm.goto(url, { timeout: 100_000 });
  await warm.waitForSelector('#state', { timeout: 100_000 });
  await warm.close();
  return {
    bridge,
    url,
    root,
    browser,
    async opened() {
      const until = Date.now() + 5000;
      // the editor creates the file, then writes it: wait for the content
      while (!existsSync(record) || !readFileSync(record, 'utf8')) {
        if (Date.now() > until) throw new Error('the editor command did not run within 5 s');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const [, location] = JSON.parse(readFileSync(record, 'utf8')) as string[];
      rmSync(record);
      return location ?? '';
    },
    async open(path = '') {
      const tab = await browser.newPage();
      await tab.goto(new URL(path, url).href);
      return tab;
    },
    async close() {
      await browser.close().catch(() => undefined);
      await server.close();
      await bridge.close();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

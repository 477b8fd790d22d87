#!/usr/bin/env node
// Builds everything the bridge serves or ships: the bridge itself (dist/bridge), and each further part's step.
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });
const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));

const steps = {
  // the bridge as Node ESM, one file per source (no bundle: each CLI mode loads only its own modules, so the
  // stdio shim starts without the server). esbuild only strips types; `npm run typecheck` checks them.
  bridge: async () => {
    const { build } = await import('esbuild');
    const { readdirSync } = await import('node:fs');
    const src = fileURLToPath(new URL('../bridge', import.meta.url));
    const entryPoints = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.startsWith('page-agent'))
      .map((f) => join(src, f));
    rmSync(new URL('../dist/bridge', import.meta.url), { recursive: true, force: true });
    await build({
      entryPoints,
      outdir: fileURLToPath(new URL('../dist/bridge', import.meta.url)),
      outbase: src,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'warning',
    });
    // what the stdio shim answers before a bridge runs: this version's initialize and tools/list
    execFileSync(process.execPath, ['scripts/tool-snapshot.js'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, AITI_LOG: 'warn' },
    });
  },
  // type declarations for the published package (exports "." and "./vite"), next to the JavaScript
  types: () => run(process.execPath, [tsc, '-p', 'bridge/tsconfig.build.json']),
  // The page agent: one minified IIFE served at /aiti/page.js (zod and modern-screenshot bundled in; scripts/page-bundle.js).
  page: async () => {
    const { bundlePage } = await import('./page-bundle.js');
    const contents = await bundlePage();
    // written whole and renamed, so a test or a running bridge never serves half a file
    const file = fileURLToPath(new URL('../dist/page/page.js', import.meta.url));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(`${file}.${process.pid}.tmp`, contents);
    renameSync(`${file}.${process.pid}.tmp`, file);
    console.error(`build: page agent dist/page/page.js is ${(contents.length / 1024).toFixed(1)} KiB`);
  },
  // the human window (dist/renderer), served by the bridge at /aiti/ui/ and loaded by the desktop app
  renderer: () => {
    const vite = fileURLToPath(new URL('../node_modules/vite/bin/vite.js', import.meta.url));
    run(process.execPath, [vite, 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']);
  },
  // the desktop shell: main as ESM (node_modules stay outside, electron-builder ships them), the sandboxed
  // preload as CommonJS (a sandboxed preload cannot be ESM)
  electron: async () => {
    const esbuild = fileURLToPath(new URL('../node_modules/esbuild/bin/esbuild', import.meta.url));
    rmSync(new URL('../dist/electron', import.meta.url), { recursive: true, force: true });
    const common = ['--bundle', '--platform=node', '--external:electron', '--sourcemap', '--log-level=warning'];
    // the production dependencies stay outside (electron-builder ships them); a dev dependency the app needs
    // (electron-updater) is bundled in, so the npm package never installs it. Bundled CommonJS asks for
    // `require`, which an ES module has not: the banner gives it one.
    const { dependencies } = JSON.parse(
      (await import('node:fs')).readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
    );
    run(esbuild, [
      'electron/main.ts',
      ...common,
      '--format=esm',
      '--target=node22',
      ...Object.keys(dependencies).map((name) => `--external:${name}`),
      `--banner:js=import { createRequire as __aitiRequire } from 'node:module'; const require = __aitiRequire(import.meta.url);`,
      '--outfile=dist/electron/main.js',
    ]);
    run(esbuild, [
      'electron/preload.ts',
      ...common,
      '--format=cjs',
      '--target=chrome140',
      '--outfile=dist/electron/preload.cjs',
    ]);
    // the CLI in one file for the installed app (the stdio shim it registers), runnable by any Node 20+:
    // dist/cli/bin/aiti-bridge.mjs, with a package.json above it for its version
    const { readFileSync, writeFileSync } = await import('node:fs');
    rmSync(new URL('../dist/cli', import.meta.url), { recursive: true, force: true });
    run(esbuild, [
      'electron/standalone-cli.ts',
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--target=node20',
      '--main-fields=module,main',
      '--log-level=warning',
      `--banner:js=import { createRequire as __aitiRequire } from 'node:module'; const require = __aitiRequire(import.meta.url);`,
      '--outfile=dist/cli/bin/aiti-bridge.mjs',
    ]);
    // the tool snapshot the shim answers with before a bridge runs (made by the bridge step)
    const { copyFileSync, existsSync } = await import('node:fs');
    const snapshot = new URL('../dist/bridge/shim/tools.json', import.meta.url);
    if (existsSync(snapshot)) copyFileSync(snapshot, new URL('../dist/cli/bin/tools.json', import.meta.url));
    else
      console.error(
        'build: no dist/bridge/shim/tools.json (run the bridge step): the app shim lists tools only once a bridge runs',
      );
    const { name, version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    writeFileSync(new URL('../dist/cli/package.json', import.meta.url), JSON.stringify({ name, version }) + '\n');
  },
};

const only = process.argv.slice(2);
for (const [name, step] of Object.entries(steps)) {
  if (only.length && !only.includes(name)) continue;
  const started = Date.now();
  try {
    await step();
  } catch (error) {
    console.error(`build: ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  console.error(`build: ${name} in ${Date.now() - started} ms`);
}

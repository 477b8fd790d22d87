#!/usr/bin/env node
// Runs the built CLI (dist/) when present, else the TypeScript sources through tsx (a development checkout).
import { existsSync } from 'node:fs';

const built = new URL('../dist/bridge/cli.js', import.meta.url);
const source = new URL('../bridge/cli.ts', import.meta.url);

if (existsSync(source) && !process.env.AITI_USE_DIST) {
  const { register } = await import('tsx/esm/api');
  register();
  const { run } = await import(source.href);
  run();
} else if (existsSync(built)) {
  const { run } = await import(built.href);
  run();
} else {
  console.error('aiti-bridge: not built; run "npm run build" first');
  process.exit(1);
}

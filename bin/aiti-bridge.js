#!/usr/bin/env node
// The CLI as installed: always the built code in dist/. A checkout runs "npm run build" first (or runs the
// TypeScript sources with "npm run bridge:dev").
import { existsSync } from 'node:fs';

const built = new URL('../dist/bridge/cli.js', import.meta.url);
if (existsSync(built)) {
  const { run } = await import(built.href);
  run();
} else {
  console.error(
    'aiti-bridge: dist/bridge/cli.js is missing, so this checkout is not built; run "npm run build" (or "npm run bridge:dev" to run the sources)',
  );
  process.exit(1);
}

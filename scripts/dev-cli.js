#!/usr/bin/env node
// npm run bridge:dev: the CLI straight from the TypeScript sources through tsx, for working on the bridge without
// rebuilding it. What users run (bin/aiti-bridge.js) is always the built code in dist/.
import { register } from 'tsx/esm/api';

register();
const { run } = await import('../bridge/cli.ts');
run();

// Writes docs/TOOLS.md from the MCP tool registry: `npx tsx scripts/gen-tool-docs.ts` (or --check to only compare).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderToolDocs } from '../bridge/mcp/tool-docs.js';
import { TOOLS } from '../bridge/mcp/tools/index.js';

const file = fileURLToPath(new URL('../docs/TOOLS.md', import.meta.url));
const text = renderToolDocs(TOOLS);
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // missing counts as stale
  }
  if (current !== text) {
    console.error('docs/TOOLS.md is stale: run npx tsx scripts/gen-tool-docs.ts');
    process.exit(1);
  }
} else {
  writeFileSync(file, text);
  console.error(`wrote ${file} (${TOOLS.length} tools)`);
}

// Writes docs/TOOLS.md from the MCP tool registry and docs/PAGES.md's page command table from the command
// descriptors: `npx tsx scripts/gen-tool-docs.ts` (or --check to only compare).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderReadmeCommands, renderToolDocs, withReadmeCommands } from '../bridge/mcp/tool-docs.js';
import { TOOLS } from '../bridge/mcp/tools/index.js';

const toolsFile = fileURLToPath(new URL('../docs/TOOLS.md', import.meta.url));
const readmeFile = fileURLToPath(new URL('../docs/PAGES.md', import.meta.url));
const readme = readFileSync(readmeFile, 'utf8');
const wanted = [
  { file: toolsFile, text: renderToolDocs(TOOLS) },
  { file: readmeFile, text: withReadmeCommands(readme, renderReadmeCommands()) },
];
if (process.argv.includes('--check')) {
  const stale = wanted.filter(({ file, text }) => {
    try {
      return readFileSync(file, 'utf8') !== text;
    } catch {
      return true; // missing counts as stale
    }
  });
  for (const { file } of stale) console.error(`${file} is stale: run npx tsx scripts/gen-tool-docs.ts`);
  if (stale.length) process.exit(1);
} else {
  for (const { file, text } of wanted) writeFileSync(file, text);
  console.error(`wrote ${toolsFile} (${TOOLS.length} tools) and the page commands of ${readmeFile}`);
}

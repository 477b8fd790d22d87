import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderToolDocs } from '../../bridge/mcp/tool-docs.js';
import { TOOLS } from '../../bridge/mcp/tools/index.js';

describe('docs/TOOLS.md', () => {
  it('is what the registry generates (run npx tsx scripts/gen-tool-docs.ts after changing a tool)', () => {
    const onDisk = readFileSync(new URL('../../docs/TOOLS.md', import.meta.url), 'utf8');
    expect(onDisk).toBe(renderToolDocs(TOOLS));
  });

  it('documents every tool with its parameters and every page command', () => {
    const docs = renderToolDocs(TOOLS);
    for (const tool of TOOLS) expect(docs).toContain(`## ${tool.name}`);
    expect(docs).toMatch(/\| `cmd` \| string \| yes \|/);
    expect(docs).toContain('| `Input.type` | `target`: string, `text`: string, `submit?`: boolean');
  });
});

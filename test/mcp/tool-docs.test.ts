import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderReadmeCommands, renderToolDocs, withReadmeCommands } from '../../bridge/mcp/tool-docs.js';
import { findTool, TOOL_NAMES, TOOLS } from '../../bridge/mcp/tools/index.js';
import { DANGER_TEXT, PAGE_COMMAND_NAMES, pageCommand } from '../../bridge/protocol/index.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('docs/TOOLS.md', () => {
  it('is what the registry generates (run npx tsx scripts/gen-tool-docs.ts after changing a tool)', () => {
    expect(read('docs/TOOLS.md')).toBe(renderToolDocs(TOOLS));
  });

  it('documents every tool with its parameters and every page command', () => {
    const docs = renderToolDocs(TOOLS);
    for (const tool of TOOLS) expect(docs).toContain(`## ${tool.name}`);
    expect(docs).toMatch(/\| `cmd` \| string \| yes \|/);
    expect(docs).toContain('| `Input.type` | `target`: string, `text`: string, `submit?`: boolean');
  });
});

describe("the README's page commands", () => {
  it('are what the command descriptors generate (run npx tsx scripts/gen-tool-docs.ts after changing one)', () => {
    const readme = read('README.md');
    expect(readme).toBe(withReadmeCommands(readme, renderReadmeCommands()));
  });

  it('a README that lost the markers of its table is an error saying so, not a silent append', () => {
    expect(() => withReadmeCommands('# README\n', renderReadmeCommands())).toThrow(/lost the markers/);
  });
});

describe('the page command descriptors and what reads them', () => {
  it("every command's tool is in the registry, and page_exec's description names exactly its own commands", () => {
    // the description groups them by domain: "DOM.query|getHTML|getText"
    const named = new Set(
      [...(findTool('page_exec')?.description ?? '').matchAll(/\b([A-Z][A-Za-z]*)\.([a-zA-Z|]+)/g)].flatMap(
        ([, domain, methods]) => (methods ?? '').split('|').map((method) => `${domain}.${method}`),
      ),
    );
    for (const name of PAGE_COMMAND_NAMES) {
      const { tool } = pageCommand(name);
      expect(TOOL_NAMES, `${name} is reached through ${tool}`).toContain(tool);
      expect(named.has(name), `page_exec's description names ${name}`).toBe(tool === 'page_exec');
    }
  });

  it("page_exec's description and docs/SECURITY.md name every command that asks the human first", () => {
    const description = findTool('page_exec')?.description ?? '';
    const security = read('docs/SECURITY.md');
    const dangerous = PAGE_COMMAND_NAMES.filter((name) => pageCommand(name).danger !== 'none');
    expect(dangerous.length).toBeGreaterThan(0);
    for (const name of dangerous) {
      const { danger } = pageCommand(name);
      if (danger === 'none') continue;
      expect(description).toContain(`${name} (${DANGER_TEXT[danger]})`);
      expect(security, `docs/SECURITY.md names ${name}`).toContain(`\`${name}\``);
    }
  });
});

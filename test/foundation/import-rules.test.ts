import { readdirSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const eslint = new ESLint({ cwd: root.pathname });

/** What lint says about `source` as if it were the file at `path` (repository-relative). */
async function refusals(path: string, source: string, rule = 'aiti/allowed-imports'): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: new URL(path, root).pathname });
  return (result?.messages ?? []).filter((m) => m.ruleId === rule).map((m) => m.message);
}

describe('the import allow-lists (eslint.config.js)', () => {
  it('refuse an import of the MCP edge from the image store, naming what the folder may import', async () => {
    const [message] = await refusals(
      'bridge/images/store.ts',
      "import type { ToolCall } from '../mcp/tool.js';\nexport type T = ToolCall;\n",
    );
    expect(message).toMatch(/may not import "\.\.\/mcp\/tool\.js" \(bridge\/mcp\/tool\.ts\)/);
    expect(message).toContain('It may import: bridge/images/, bridge/protocol/');
  });

  it('refuse the whole BridgeContext in the domain, and a folder reaching above itself', async () => {
    expect(
      await refusals('bridge/pages/watch.ts', "import type { BridgeContext } from '../context.js';\n"),
    ).toHaveLength(1);
    expect(await refusals('bridge/pages/registry.ts', "import type { Asks } from '../asks/asks.js';\n")).toHaveLength(
      1,
    );
    expect(await refusals('bridge/asks/page-gate.ts', "import type { Page } from '../pages/registry.js';\n")).toEqual(
      [],
    );
  });

  it('keep node and electron out of the page, the protocol and the server, and http out of non-route domain files', async () => {
    expect(await refusals('bridge/page-agent/dom/refs.ts', "import { readFileSync } from 'node:fs';\n")).toHaveLength(
      1,
    );
    expect(await refusals('bridge/protocol/common.ts', "import { join } from 'node:path';\n")).toHaveLength(1);
    expect(await refusals('bridge/inbox/inbox.ts', "import { app } from 'electron';\n")).toHaveLength(1);
    expect(await refusals('bridge/inbox/inbox.ts', "import { readBody } from '../http/body.js';\n")).toHaveLength(1);
    expect(await refusals('bridge/inbox/routes.ts', "import { readBody } from '../http/body.js';\n")).toEqual([]);
  });

  it('layer the page agent: a widget never imports a command handler, the DOM layer nothing above it', async () => {
    const [up] = await refusals('bridge/page-agent/ui/set-field.ts', "import { label } from '../commands/input.js';\n");
    expect(up).toMatch(/ui\/ may not import|may not import "\.\.\/commands\/input\.js"/);
    expect(up).toContain('never through a command handler');
    expect(await refusals('bridge/page-agent/dom/aria.ts', "import { fold } from '../ui/combobox.js';\n")).toHaveLength(
      1,
    );
    expect(
      await refusals('bridge/page-agent/act/events.ts', "import { isComposite } from '../ui/combobox.js';\n"),
    ).toHaveLength(1);
    expect(
      await refusals('bridge/page-agent/watch/raised.ts', "import { overlay } from '../human/overlay.js';\n"),
    ).toHaveLength(1);
    expect(
      await refusals('bridge/page-agent/commands/input.ts', "import { chooseOptions } from '../ui/choices.js';\n"),
    ).toEqual([]);
    expect(
      await refusals('bridge/page-agent/newlayer/a.ts', "import { roleOf } from '../dom/aria.js';\n"),
    ).toHaveLength(1);
  });

  it('make page-side files import zod as a namespace, which is how the page build checks each builder', async () => {
    const named = await refusals('bridge/protocol/common.ts', "import { z } from 'zod';\n", 'no-restricted-syntax');
    expect(named[0]).toContain("import * as z from 'zod'");
    expect(await refusals('bridge/protocol/common.ts', "import * as z from 'zod';\n", 'no-restricted-syntax')).toEqual(
      [],
    );
  });

  it('refuse every import of a folder that has no allow-list yet', async () => {
    const [message] = await refusals('bridge/newthing/a.ts', "import { z } from 'zod';\n");
    expect(message).toContain('has no row in eslint.config.js yet');
  });

  it('give every folder of bridge/ and every root file an allow-list of its own', async () => {
    const catchAll = 'has no row in eslint.config.js yet';
    const entries = readdirSync(new URL('bridge/', root), { withFileTypes: true });
    const samples = entries.flatMap((entry) => {
      if (entry.isDirectory()) {
        const file = readdirSync(new URL(`bridge/${entry.name}/`, root), { recursive: true, encoding: 'utf8' }).find(
          (name) => name.endsWith('.ts'),
        );
        return file ? [`bridge/${entry.name}/${file}`] : [];
      }
      return entry.name.endsWith('.ts') ? [`bridge/${entry.name}`] : [];
    });
    expect(samples.length).toBeGreaterThan(20);
    for (const path of samples) {
      const config = (await eslint.calculateConfigForFile(new URL(path, root).pathname)) as {
        rules?: Record<string, [number, { why: string }]>;
      };
      const why = config.rules?.['aiti/allowed-imports']?.[1]?.why ?? catchAll;
      expect(why, path).not.toContain(catchAll);
    }
  });
});

import { describe, expectTypeOf, it } from 'vitest';
import { defineTool, type ToolDefinition } from '../../bridge/mcp/tool.js';
import type { ToolArgs } from '../../bridge/mcp/tools/index.js';
import { pageLogs } from '../../bridge/mcp/tools/page-logs.js';
import { pageNetwork } from '../../bridge/mcp/tools/page-network.js';

/**
 * What the tool types promise, as type tests: vitest's typecheck mode runs tsc over this file in `npm test`, and an
 * `@ts-expect-error` that no longer finds its error fails the run, so each of these refusals is checked.
 */
describe('a tool definition', () => {
  it("cannot be given another tool's schema", () => {
    defineTool({
      name: 'page_logs',
      title: 'wrong',
      description: 'a tool pointing at the schema of another tool',
      // @ts-expect-error: page_network's schema is not page_logs' schema; defineTool must refuse the pair
      inputSchema: pageNetwork.inputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
      handle: async () => ({ structured: {} }),
    });
    expectTypeOf(pageLogs.inputSchema).not.toEqualTypeOf(pageNetwork.inputSchema);
  });

  it('must say whether it only reads and whether it reaches outside the bridge', () => {
    // @ts-expect-error: a tool without annotations does not compile
    const bare: ToolDefinition = { ...pageLogs, annotations: undefined };
    // @ts-expect-error: nor one that leaves out openWorldHint
    const half: ToolDefinition = { ...pageLogs, annotations: { readOnlyHint: true } };
    expectTypeOf([bare, half]).toEqualTypeOf<ToolDefinition[]>();
  });

  it('hands its handler the arguments its own schema describes', () => {
    expectTypeOf<ToolArgs<'page_logs'>>().toHaveProperty('limit');
    expectTypeOf<Parameters<typeof pageLogs.handle>[0]>().toEqualTypeOf<ToolArgs<'page_logs'>>();
  });
});

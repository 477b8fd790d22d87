import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../bridge/mcp/tools/index.js';
import { PUBLIC_COMMANDS, type AskView, type Json } from '../../bridge/protocol/index.js';
import { http, startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent } from '../helpers/mcp.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { SseClient } from '../helpers/sse.js';

/**
 * Property-based fuzzing of every MCP tool's arguments, taken from the TOOLS registry (a new tool is fuzzed
 * without touching this file), over a real SDK client on Streamable HTTP. Every answer must be a normal result
 * or an isError result with a reason — never a protocol error, a crash or a hang — and the bridge stays healthy.
 */

const CALL_LIMIT_MS = 8000;

const jsonish: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ maxLength: 30 }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 12 }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

interface SchemaDef {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string>;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { def: SchemaDef }).def;

/**
 * A value the schema would likely accept, read from the zod schema itself (so a new tool needs nothing here), with
 * values that reach the handlers' own checks for the keys that name things (pages, frames, commands, paths).
 */
function validFor(key: string, schema: z.ZodType, pageId: string): fc.Arbitrary<unknown> {
  const named: Record<string, fc.Arbitrary<unknown>> = {
    pageId: fc.constantFrom(pageId, pageId, 'p999'),
    frameId: fc.constantFrom('main', 'f1'),
    cmd: fc.oneof(fc.constantFrom(...PUBLIC_COMMANDS), fc.constantFrom('Runtime.nope', 'Snapshot.take')),
    args: fc.dictionary(
      fc.constantFrom('target', 'expression', 'text', 'url', 'key', 'timeoutMs', 'selector', 'area', 'value'),
      jsonish,
    ),
    path: fc.constantFrom('/', '/tmp', '/etc/hostname', '/no/such/file', 'relative/path'),
    agentId: fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
    since: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    ack: fc.array(fc.stringMatching(/^m[a-z0-9]{4,12}$/), { maxLength: 3 }),
  };
  if (named[key]) return named[key];
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
      return def.innerType ? validFor(key, def.innerType, pageId) : jsonish;
    case 'string':
      return fc.string({ minLength: 1, maxLength: 30 });
    case 'boolean':
      return fc.boolean();
    case 'number':
      return fc.integer({ min: 1, max: 1500 });
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? { none: 'none' }));
    case 'array':
      return fc.array(def.element ? validFor('', def.element, pageId) : jsonish, { minLength: 2, maxLength: 4 });
    case 'record':
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 10 }), { maxKeys: 3 });
    default:
      return jsonish;
  }
}

/** Arguments for a tool: likely-valid ones, the same with one key broken, and unrelated junk. */
function argumentsFor(schema: z.ZodObject, pageId: string): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(schema.shape);
  const valid = fc.record(Object.fromEntries(keys.map((k) => [k, validFor(k, schema.shape[k] as z.ZodType, pageId)])), {
    requiredKeys: keys.filter((k) => defOf(schema.shape[k] as z.ZodType).type !== 'optional'),
  });
  const broken = keys.length
    ? fc.tuple(valid, fc.constantFrom(...keys), jsonish).map(([args, key, junk]) => ({ ...args, [key]: junk }))
    : valid;
  const junk = fc.dictionary(fc.string({ maxLength: 12 }), jsonish, { maxKeys: 4 });
  return fc.oneof(
    { arbitrary: valid, weight: 3 },
    { arbitrary: broken, weight: 2 },
    { arbitrary: junk, weight: 1 },
  ) as fc.Arbitrary<Record<string, unknown>>;
}

describe('fuzzing every MCP tool', () => {
  it('answers any arguments with a result or an isError with a reason, and stays healthy', async () => {
    // a short page timeout keeps a command the scripted page does not understand from holding a run for 30 s
    const bridge = await startBridge({ commandTimeoutMs: 1000 });
    const page = await ScriptedPage.connect(bridge.url);
    // the human: every question (and every dangerous page command) is rejected the moment it appears
    const window = await SseClient.open(`${bridge.url}/bridge/sse?role=ai&token=${bridge.token}`);
    await window.next('state');
    let answering = true;
    void (async () => {
      while (answering) {
        const ask = (await window.next('ask', 60_000).catch(() => undefined))?.data as AskView | undefined;
        if (!ask) continue;
        await http(`${bridge.url}/bridge/answer`, {
          token: bridge.token,
          body: { askId: ask.askId, action: 'reject', reason: 'not_now' },
        });
      }
    })();
    const agent = await connectAgent(bridge.url, { clientName: 'fuzzer' });
    const listed = (await agent.listTools()).tools.map((t) => t.name).sort();
    expect(listed).toEqual(TOOLS.map((t) => t.name).sort());

    const failures: string[] = [];
    for (const tool of TOOLS) {
      const args = argumentsFor(tool.inputSchema, page.pageId);
      await fc.assert(
        fc.asyncProperty(args, async (input) => {
          const what = `${tool.name} ${JSON.stringify(input)}`;
          let timer: NodeJS.Timeout | undefined;
          const hang = new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`${what}: no answer within ${CALL_LIMIT_MS} ms`)), CALL_LIMIT_MS);
          });
          try {
            const call = agent.callTool({ name: tool.name, arguments: input }, undefined, {
              timeout: CALL_LIMIT_MS * 2,
            }) as Promise<CallToolResult>;
            const result = await Promise.race([call, hang]);
            expect(Array.isArray(result.content), what).toBe(true);
            if (result.isError) {
              const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join(' ');
              expect(text.length, what).toBeGreaterThan(tool.name.length + 3);
              if (/internal|unexpected|undefined is not|cannot read prop/i.test(text))
                failures.push(`${what} → ${text}`);
            }
          } finally {
            clearTimeout(timer);
          }
        }),
        { numRuns: 40 },
      );
    }
    answering = false;
    expect(failures).toEqual([]);
    expect((await http(`${bridge.url}/bridge/health`)).status).toBe(200);
    expect((await callTool(agent, 'bridge_status')).isError ?? false).toBe(false);
  }, 120_000);
});

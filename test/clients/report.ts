import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientRun } from './drivers.js';
import { SERVER } from './model/server.js';
import type { ToolDef } from './model/types.js';
import { readings } from './scenario.js';

/** The bridge's tools as the client sent them to the model in its last request (Codex: with their namespace). */
export function ourTools(run: ClientRun): ToolDef[] {
  const last = run.model.turns[run.model.turns.length - 1];
  return (last?.tools ?? []).filter((t) => t.tool !== t.name || t.namespace === `mcp__${SERVER}`);
}

/** The characters of the bridge's tool definitions as the model gets them, in all and per tool. */
export function toolDefinitions(run: ClientRun): { tools: number; chars: number; perTool: Record<string, number> } {
  const tools = ourTools(run);
  const perTool = Object.fromEntries(tools.map((t) => [t.tool, t.json.length]));
  return {
    tools: tools.filter((t) => !t.tool.startsWith('(')).length,
    chars: tools.reduce((n, t) => n + t.json.length, 0),
    perTool,
  };
}

/** Characters the model read for the run's tool results (the client's wrapping not counted), and ours. */
export function charsRead(run: ClientRun): { read: number; ours: number; wrapping: number; calls: number } {
  const all = readings(run);
  return {
    read: all.reduce((n, r) => n + r.read.text.length, 0),
    ours: all.reduce((n, r) => n + r.ours.text.length, 0),
    wrapping: all.reduce((n, r) => n + r.read.wrapping.replace(/…/g, '').length, 0),
    calls: all.length,
  };
}

/** A plain-text table of what each run's model read, call by call, for the test log and the report. */
export function report(client: string, runs: Partial<Record<string, ClientRun>>, ms: number): string {
  const lines = [`test/clients: ${client}, ${Object.keys(runs).length} runs at once in ${ms} ms`];
  for (const [key, run] of Object.entries(runs)) {
    if (!run) continue;
    const first = run.model.requests.find((r) => r.agentTurn);
    lines.push(
      `  ${key} (${run.transport}): exit ${run.code}${run.stopped ? ` (${run.stopped})` : ''} after ${run.ms} ms, first model request at ${first ? first.at - run.startedAt : '-'} ms, ${run.model.turns.length} turns, ${run.model.requests.length - run.model.turns.length} side requests`,
    );
    if (!first)
      lines.push(
        `    no turn offered the bridge's tools; the client said:\n${run.stdout.slice(0, 3000)}\n${run.stderr.slice(-2000)}`,
      );
    let list: ReturnType<typeof readings> = [];
    try {
      list = readings(run);
    } catch (error) {
      lines.push(`    ${(error as Error).message}`);
    }
    for (const r of list) {
      const what = r.tool === 'page_exec' ? `page_exec ${String((r.args as { cmd?: string }).cmd)}` : r.tool;
      lines.push(
        `    ${what.padEnd(26)} ours ${String(r.ours.text.length).padStart(5)}  read ${String(r.read.text.length).padStart(5)}  ×${(r.read.text.length / Math.max(1, r.ours.text.length)).toFixed(2)}  images ${r.ours.images}→${r.read.images.length}  wrapping ${r.read.wrapping.replace(/…/g, '').length}`,
      );
    }
    const defs = toolDefinitions(run);
    lines.push(`    tool definitions: ${defs.tools} tools, ${defs.chars} chars`);
  }
  return lines.join('\n');
}

/**
 * Writes what a run's model read beside what the bridge sent, call by call, and every model request as it came,
 * to `<dir>/<client>-<key>.json` (AITI_CLIENTS_DUMP=<dir> in the suite): for reading a failure closely.
 */
export function dumpRun(dir: string, key: string, run: ClientRun): void {
  mkdirSync(dir, { recursive: true });
  let list: unknown;
  try {
    list = readings(run).map((r) => ({
      tool: r.tool,
      args: r.args,
      ours: r.ours.text,
      read: r.read.text,
      wrapping: r.read.wrapping,
      images: r.read.images.length,
      isError: r.read.isError,
    }));
  } catch (error) {
    list = String(error);
  }
  const file = join(dir, `${run.client}-${key}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      { config: run.config, stdout: run.stdout, stderr: run.stderr, readings: list, requests: run.model.requests },
      null,
      2,
    ),
  );
}

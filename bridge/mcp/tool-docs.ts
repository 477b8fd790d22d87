import { z } from 'zod';
import {
  DANGER_TEXT,
  PAGE_COMMAND_NAMES,
  PageCommands,
  PUBLIC_COMMANDS,
  pageCommand,
  type PageCommandName,
} from '../protocol/index.js';
import type { ToolDefinition } from './tool.js';
import { SERVER_INSTRUCTIONS } from './instructions.js';

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  required?: string[];
  description?: string;
  $ref?: string;
}

/** docs/TOOLS.md, generated from the tool registry and the page command schemas (so the docs cannot drift). */
export function renderToolDocs(tools: readonly ToolDefinition[]): string {
  const lines = [
    '# MCP tools',
    '',
    '<!-- Generated from bridge/mcp/tools/index.ts by `npx tsx scripts/gen-tool-docs.ts`. Do not edit by hand. -->',
    '',
    'A tool result is text written for a model to read: a summary line and plain lines (a snapshot is its outline,',
    'never a JSON string), images as image content. A program that wants the value as JSON asks for it: the',
    'experimental client capability `ai.aiti/structured`, or `_meta: {"ai.aiti/structured": true}` on one call; the',
    'result then carries it in `structuredContent` too (docs/PROTOCOL.md says why it is not there by default).',
    'Actions on a page (`page_exec` `Input.*`, a same-document navigation, `form_fill`) also report how the outline',
    "changed since the agent's last `page_snapshot` of that page (`outlineChange`). Errors are `isError` results that",
    'name the bad field. When the agent has unread inbox messages, a one-line notice follows.',
    '',
    "What the parameters several tools share mean (`pageId`, `frameId`, `target`, and the asks' `timeoutMs`, `async`",
    "and `wait`) is said once, in the server's instructions, which every client receives:",
    '',
    ...SERVER_INSTRUCTIONS.split('\n').map((line) => `> ${line}`),
    '',
    '| tool | title | what it does |',
    '|---|---|---|',
    ...tools.map((t) => `| [\`${t.name}\`](#${t.name}) | ${t.title} | ${cell(firstSentence(t.description))} |`),
    '',
  ];
  for (const tool of tools) {
    lines.push(`## ${tool.name}`, '', `**${tool.title}.** ${tool.description}`, '');
    const hints = annotationsOf(tool);
    if (hints) lines.push(`_${hints}_`, '');
    lines.push(...parameterTable(toSchema(tool.inputSchema)), '');
  }
  lines.push(
    '## Page commands',
    '',
    'The `cmd` values `page_exec` takes, with their `args`. `target` is a ref from `page_snapshot` (`e12`),',
    '`css=<selector>` or `text=<visible text>`.',
    '',
    '| command | args | asks the human first |',
    '|---|---|---|',
    ...PUBLIC_COMMANDS.map(
      (name) => `| \`${name}\` | ${cell(inlineParams(toSchema(PageCommands[name])))} | ${cell(confirmation(name))} |`,
    ),
    '',
  );
  return lines.join('\n');
}

/** The README's generated part starts after this line and ends before README_COMMANDS_END. */
export const README_COMMANDS_START =
  '<!-- page commands: generated from bridge/protocol/commands.ts by `npx tsx scripts/gen-tool-docs.ts`; do not edit by hand -->';
export const README_COMMANDS_END = '<!-- end of the generated page commands -->';

/** The README's "Page commands" table and the page halves of the other tools, from the command descriptors. */
export function renderReadmeCommands(): string {
  const halves = new Map<string, PageCommandName[]>();
  for (const name of PAGE_COMMAND_NAMES) {
    const { tool } = pageCommand(name);
    if (tool !== 'page_exec') halves.set(tool, [...(halves.get(tool) ?? []), name]);
  }
  return [
    '| command | args | result | asks the human first |',
    '|---|---|---|---|',
    ...PUBLIC_COMMANDS.map(
      (name) =>
        `| \`${name}\` | ${cell(braceParams(toSchema(PageCommands[name])))} | ${cell(pageCommand(name).result)} | ${cell(confirmation(name))} |`,
    ),
    '',
    `The page halves of the other tools: ${[...halves]
      .map(([tool, names]) => `${names.map((name) => `\`${name}\``).join(' and ')} (\`${tool}\`)`)
      .join(', ')}; their result shapes are in [\`bridge/protocol/snapshot.ts\`](bridge/protocol/snapshot.ts).`,
  ].join('\n');
}

/**
 * What `page_exec {"cmd":"help"}` answers: each command with its args and result, one a line, and the ones that wait
 * for the human's yes. The tool's description names the commands only, so their details are read when needed.
 */
export function commandHelp(): string {
  return PUBLIC_COMMANDS.map((name) => {
    const args = braceParams(toSchema(PageCommands[name])).replace(/`/g, '');
    const ask = confirmation(name);
    return `${name} ${args} → ${pageCommand(name).result}${ask ? ` (asks the human first${ask.slice(3)})` : ''}`;
  }).join('\n');
}

/** `readme` with its generated page commands replaced by `generated`; throws when the markers are missing. */
export function withReadmeCommands(readme: string, generated: string): string {
  const start = readme.indexOf(README_COMMANDS_START);
  const end = readme.indexOf(README_COMMANDS_END);
  if (start < 0 || end < start)
    throw new Error(
      `README.md has lost the markers of its generated page commands ("${README_COMMANDS_START}" … "${README_COMMANDS_END}"): put them back around the table`,
    );
  return `${readme.slice(0, start + README_COMMANDS_START.length)}\n\n${generated}\n\n${readme.slice(end)}`;
}

function confirmation(name: PageCommandName): string {
  const { danger } = pageCommand(name);
  return danger === 'none'
    ? ''
    : danger === 'cross-origin-navigation'
      ? `yes, ${DANGER_TEXT[danger]}`
      : `yes: it ${DANGER_TEXT[danger]}`;
}

/** `{area: "local" \| "session", key?}`: the README's compact form of a command's args. */
function braceParams(schema: JsonSchema): string {
  const entries = Object.entries(schema.properties ?? {});
  if (entries.length === 0) return '—';
  const required = new Set(schema.required ?? []);
  const params = entries.map(([name, prop]) => {
    const key = `${name}${required.has(name) ? '' : '?'}`;
    return prop.enum ? `${key}: ${prop.enum.map(String).join(' | ')}` : key;
  });
  return `\`{${params.join(', ')}}\``;
}

function toSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

function parameterTable(schema: JsonSchema): string[] {
  const entries = Object.entries(schema.properties ?? {});
  if (entries.length === 0) return ['No parameters.'];
  const required = new Set(schema.required ?? []);
  return [
    '| parameter | type | required | description |',
    '|---|---|---|---|',
    ...entries.map(
      ([name, prop]) =>
        `| \`${name}\` | ${cell(typeOf(prop))} | ${required.has(name) ? 'yes' : ''} | ${cell(prop.description ?? '')} |`,
    ),
  ];
}

function inlineParams(schema: JsonSchema): string {
  const entries = Object.entries(schema.properties ?? {});
  if (entries.length === 0) return '—';
  const required = new Set(schema.required ?? []);
  return entries.map(([name, prop]) => `\`${name}${required.has(name) ? '' : '?'}\`: ${typeOf(prop)}`).join(', ');
}

function typeOf(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' \\| ');
  if (schema.$ref) return 'JSON';
  if (schema.type === 'array') return `${schema.items ? typeOf(schema.items) : 'any'}[]`;
  if (schema.type === 'object' && typeof schema.additionalProperties === 'object') {
    return `{ [key]: ${typeOf(schema.additionalProperties)} }`;
  }
  if (Array.isArray(schema.type)) return schema.type.join(' \\| ');
  return schema.type ?? 'any';
}

function annotationsOf(tool: ToolDefinition): string {
  const a = tool.annotations;
  const said = [
    a.readOnlyHint ? 'read-only' : undefined,
    a.destructiveHint ? 'destructive' : undefined,
    a.idempotentHint ? 'idempotent' : undefined,
  ].filter(Boolean);
  return said.join(', ');
}

function firstSentence(text: string): string {
  const match = /^(.+?\.)(\s|$)/.exec(text);
  return match?.[1] ?? text;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

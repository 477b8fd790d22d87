import { bareName, NAMESPACE, sse, type ApiServer } from './server.js';
import type { Conversation, ReadImage, ToolDef, ToolRead } from './types.js';

type Item = Record<string, unknown> & { type?: string };

/**
 * Codex sends an MCP server's tools as one `namespace` tool (`mcp__aiti`, its description the server's
 * instructions) holding a function per tool; other tools are plain functions.
 */
function toolsOf(body: Record<string, unknown>): ToolDef[] {
  const tools = Array.isArray(body.tools) ? (body.tools as Item[]) : [];
  return tools.flatMap((t): ToolDef[] => {
    if (t.type === 'namespace' && Array.isArray(t.tools)) {
      const { tools: inner, ...namespace } = t;
      return [
        // the namespace's own name and description (the server's instructions) are read too
        { name: String(t.name), tool: NAMESPACE, namespace: String(t.name), json: JSON.stringify(namespace) },
        ...(inner as Item[]).map((f) => ({
          name: String(f.name),
          tool: String(f.name),
          namespace: String(t.name),
          json: JSON.stringify(f),
        })),
      ];
    }
    return typeof t.name === 'string' ? [{ name: t.name, tool: bareName(t.name), json: JSON.stringify(t) }] : [];
  });
}

/** A data: URL's type and base64 bytes. */
function imageOf(url: string): ReadImage {
  const found = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return { mimeType: found?.[1] ?? 'unknown', data: found?.[2] ?? '' };
}

function readsOf(input: Item[]): ToolRead[] {
  const names = new Map<string, string>();
  const reads: ToolRead[] = [];
  for (const item of input) {
    if (item.type === 'function_call') names.set(String(item.call_id), String(item.name));

    if (item.type !== 'function_call_output') continue;
    const output = item.output;
    const parts: Item[] = typeof output === 'string' ? [{ type: 'input_text', text: output }] : (output as Item[]);
    const id = String(item.call_id);
    const all = parts
      .filter((p) => p.type === 'input_text' || p.type === 'output_text')
      .map((p) => String(p.text))
      .join('\n');
    // Codex heads an MCP tool's output with how long the call took
    const header = WALL_TIME.exec(all)?.[0] ?? '';
    reads.push({
      tool: bareName(names.get(id) ?? ''),
      callId: id,
      text: all.slice(header.length),
      images: parts.filter((p) => p.type === 'input_image').map((p) => imageOf(String(p.image_url))),
      wrapping: header ? `${header}…` : '',
      isError: false,
      raw: item,
    });
  }
  return reads;
}

const WALL_TIME = /^Wall time: [\d.]+ seconds\n(?:Output:\n)?/;

let responses = 0;

/** The OpenAI Responses API as Codex streams it (`POST /v1/responses`, SSE). */
export const openaiApi: ApiServer = {
  route(method, path) {
    if (method === 'POST' && path === '/v1/responses') return 'converse';
    if (method === 'GET' && path === '/v1/models') return { json: { object: 'list', data: [] } };
    return { status: 404, json: { error: { message: `no ${method} ${path} here`, type: 'not_found' } } };
  },

  isAgentTurn(body) {
    return toolsOf(body).some((t) => t.namespace?.startsWith('mcp__') || t.name.startsWith('mcp__'));
  },

  parse(body): Conversation {
    const input = (Array.isArray(body.input) ? body.input : []) as Item[];
    const user = input.filter((i) => i.type === 'message' && i.role === 'user');
    const texts = ((user[user.length - 1]?.content ?? []) as Item[]).map((c) => String(c.text ?? ''));
    return { tools: toolsOf(body), reads: readsOf(input), prompt: texts[texts.length - 1] ?? '' };
  },

  answer(turn) {
    const item =
      'call' in turn
        ? {
            type: 'function_call',
            id: `fc_${turn.id}`,
            call_id: turn.id,
            name: turn.call.name,
            ...(turn.call.namespace ? { namespace: turn.call.namespace } : {}),
            arguments: JSON.stringify(turn.args),
            status: 'completed',
          }
        : {
            type: 'message',
            id: `msg_${++responses}`,
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: turn.text, annotations: [] }],
          };
    return stream([item]);
  },

  side() {
    return stream([
      {
        type: 'message',
        id: `msg_${++responses}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'ok', annotations: [] }],
      },
    ]);
  },
};

function stream(items: Item[]): string {
  const id = `resp_${++responses}`;
  const usage = {
    input_tokens: 100,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 10,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 110,
  };
  let out = sse({ type: 'response.created', response: { id, status: 'in_progress', output: [] } }, 'response.created');
  items.forEach((item, output_index) => {
    out += sse({ type: 'response.output_item.added', output_index, item }, 'response.output_item.added');
    out += sse({ type: 'response.output_item.done', output_index, item }, 'response.output_item.done');
  });
  out += sse(
    { type: 'response.completed', response: { id, status: 'completed', output: items, usage } },
    'response.completed',
  );
  return out;
}

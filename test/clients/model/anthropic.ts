import { bareName, sse, type ApiServer } from './server.js';
import type { Conversation, ReadImage, ToolDef, ToolRead } from './types.js';

type Block = Record<string, unknown> & { type?: string };

const IMAGE_SOURCE = /^\[Image: source: [^\n]*\]$/;
/** …a line Claude Code may also put at the end of the result's last text block, beside an image it saved */
const IMAGE_SOURCE_LINE = /\n?\[Image: source: [^\n]*\]$/gm;
const REMINDER = /\n*<system-reminder>[\s\S]*?<\/system-reminder>\n*/g;

const asBlocks = (content: unknown): Block[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? (content as Block[]) : [];

function toolsOf(body: Record<string, unknown>): ToolDef[] {
  const tools = Array.isArray(body.tools) ? (body.tools as Array<Record<string, unknown>>) : [];
  return tools.map((t) => ({ name: String(t.name), tool: bareName(String(t.name)), json: JSON.stringify(t) }));
}

function readsOf(messages: Array<{ role: string; content: unknown }>): ToolRead[] {
  const names = new Map<string, string>();
  const reads: ToolRead[] = [];
  for (const message of messages) {
    for (const block of asBlocks(message.content)) {
      if (block.type === 'tool_use') names.set(String(block.id), String(block.name));
      if (block.type !== 'tool_result') continue;
      const inner = asBlocks(block.content);
      const images: ReadImage[] = inner
        .filter((b) => b.type === 'image')
        .map((b) => {
          const source = b.source as { media_type?: string; data?: string };
          return { mimeType: String(source.media_type), data: String(source.data) };
        });
      const id = String(block.tool_use_id);
      const texts = inner.filter((b) => b.type === 'text').map((b) => String(b.text));
      // Claude Code keeps each image in a file and adds a text block saying where
      const joined = texts.filter((t) => !IMAGE_SOURCE.test(t)).join('\n');
      const saved = [...texts.filter((t) => IMAGE_SOURCE.test(t)), ...(joined.match(IMAGE_SOURCE_LINE) ?? [])];
      const all = joined.replace(IMAGE_SOURCE_LINE, '');
      // and appends its own <system-reminder> blocks (the tokens left …) to a tool result's text
      const reminders = all.match(REMINDER) ?? [];
      reads.push({
        tool: bareName(names.get(id) ?? ''),
        callId: id,
        text: all.replace(REMINDER, ''),
        images,
        wrapping: saved.length || reminders.length ? [`…${reminders.join('')}`, ...saved].join('\n') : '',
        isError: block.is_error === true,
        raw: block,
      });
    }
  }
  return reads;
}

/** The Anthropic Messages API as Claude Code streams it (`POST /v1/messages?beta=true`, SSE). */
export const anthropicApi: ApiServer = {
  route(method, path) {
    if (method === 'POST' && path === '/v1/messages') return 'converse';
    if (method === 'POST' && path === '/v1/messages/count_tokens') return { json: { input_tokens: 1000 } };
    return { status: 404, json: { type: 'error', error: { type: 'not_found_error', message: `no ${path} here` } } };
  },

  isAgentTurn(body) {
    return toolsOf(body).some((t) => t.name.startsWith('mcp__'));
  },

  parse(body): Conversation {
    const messages = (Array.isArray(body.messages) ? body.messages : []) as Array<{ role: string; content: unknown }>;
    const first = asBlocks(messages[0]?.content)
      .filter((b) => b.type === 'text')
      .map((b) => String(b.text));
    return { tools: toolsOf(body), reads: readsOf(messages), prompt: first[first.length - 1] ?? '' };
  },

  answer(turn) {
    const block =
      'call' in turn
        ? { type: 'tool_use', id: `toolu_${turn.id}`, name: turn.call.name, input: {} }
        : { type: 'text', text: '' };
    const delta =
      'call' in turn
        ? { type: 'input_json_delta', partial_json: JSON.stringify(turn.args) }
        : { type: 'text_delta', text: turn.text };
    return message([block], [delta], 'call' in turn ? 'tool_use' : 'end_turn');
  },

  side() {
    return message([{ type: 'text', text: '' }], [{ type: 'text_delta', text: 'ok' }], 'end_turn');
  },
};

/** One streamed message: a block per content block, each with its one delta. */
function message(blocks: Block[], deltas: Block[], stopReason: string): string {
  const usage = { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  let out = sse(
    {
      type: 'message_start',
      message: {
        id: `msg_${Date.now()}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-standin',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage,
      },
    },
    'message_start',
  );
  blocks.forEach((block, index) => {
    out += sse({ type: 'content_block_start', index, content_block: block }, 'content_block_start');
    out += sse({ type: 'content_block_delta', index, delta: deltas[index] }, 'content_block_delta');
    out += sse({ type: 'content_block_stop', index }, 'content_block_stop');
  });
  out += sse(
    { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 10 } },
    'message_delta',
  );
  out += sse({ type: 'message_stop' }, 'message_stop');
  return out;
}

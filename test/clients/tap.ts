import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** One tools/call that went through the tap, with the result the bridge answered. */
export interface TappedCall {
  tool: string;
  args: unknown;
  result: CallToolResult;
  /** every text block of the result, joined by "\n": what `aiti-bridge call` prints, "our text" */
  text: string;
  images: number;
}

export interface McpTap {
  /** http://127.0.0.1:PORT: give it to a client (`<url>/mcp/mcp`) or to the shim (AITI_BRIDGE_URL) */
  url: string;
  /** the tools/call exchanges, in the order the calls arrived */
  calls: TappedCall[];
  close(): Promise<void>;
}

interface JsonRpc {
  id?: string | number;
  method?: string;
  params?: { name?: string; arguments?: unknown };
  result?: unknown;
}

const messagesOf = (value: unknown): JsonRpc[] =>
  (Array.isArray(value) ? value : [value]).filter((m): m is JsonRpc => typeof m === 'object' && m !== null);

/** The JSON-RPC messages of an SSE body (its `data:` lines) or of a JSON body. */
function responseMessages(contentType: string, body: string): JsonRpc[] {
  try {
    if (!contentType.includes('text/event-stream')) return body ? messagesOf(JSON.parse(body)) : [];
    return body
      .split(/\r?\n\r?\n/)
      .map((event) =>
        event
          .split(/\r?\n/)
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n'),
      )
      .filter(Boolean)
      .flatMap((data) => messagesOf(JSON.parse(data)));
  } catch {
    return [];
  }
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export interface TapOptions {
  /**
   * Changes each tools/call result before the client gets it (the answer is then held until it is whole): for
   * trying a result shape through the real clients without changing the bridge. The suite never sets it; "our
   * text" stays what the bridge sent.
   */
  rewrite?: (result: CallToolResult) => CallToolResult;
}

/** The body with the results of `ids` rewritten: a JSON body, or an event stream event by event. */
function rewriteBody(
  contentType: string,
  body: string,
  ids: unknown[],
  rewrite: (result: CallToolResult) => CallToolResult,
): string {
  const change = (message: JsonRpc): JsonRpc =>
    ids.includes(message.id) && message.result
      ? { ...message, result: rewrite(message.result as CallToolResult) }
      : message;
  if (!contentType.includes('text/event-stream')) {
    const parsed = JSON.parse(body) as unknown;
    return JSON.stringify(Array.isArray(parsed) ? parsed.map((m) => change(m as JsonRpc)) : change(parsed as JsonRpc));
  }
  return body
    .split('\n\n')
    .map((event) => {
      const lines = event.split('\n');
      const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart());
      if (!data.length || !data.join('')) return event;
      try {
        const message = change(JSON.parse(data.join('\n')) as JsonRpc);
        return [...lines.filter((l) => !l.startsWith('data:')), `data: ${JSON.stringify(message)}`].join('\n');
      } catch {
        return event;
      }
    })
    .join('\n\n');
}

/**
 * A transparent HTTP proxy in front of the bridge that records every MCP tools/call and the result the bridge
 * sent back: what "our text" is for each call a client made, to compare with what its model read. Bytes pass
 * unchanged both ways (event streams as they come), so the client and the shim behave as with the bridge itself.
 */
export async function startTap(bridgeUrl: string, options: TapOptions = {}): Promise<McpTap> {
  const upstream = new URL(bridgeUrl);
  const calls: TappedCall[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      let asked: JsonRpc[] = [];
      try {
        asked = body.length ? messagesOf(JSON.parse(body.toString('utf8'))) : [];
      } catch {
        // not JSON: passed on as it is
      }
      const toolCalls = asked.filter((m) => m.method === 'tools/call' && m.id !== undefined);
      // a slot per call, taken in arrival order, filled when its answer comes
      const slots = toolCalls.map((m) => {
        const slot: TappedCall = {
          tool: String(m.params?.name),
          args: m.params?.arguments,
          result: { content: [] },
          text: '',
          images: 0,
        };
        calls.push(slot);
        return { id: m.id, slot };
      });
      const forward = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          const rewrite = slots.length ? options.rewrite : undefined;
          const contentType = String(answer.headers['content-type'] ?? '');
          if (!rewrite) {
            // the headers go on at once, as the bridge sent them: an event stream may have no event for a while
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.flushHeaders();
          }
          let text = '';
          answer.on('data', (chunk: Buffer) => {
            if (slots.length) text += chunk.toString('utf8');
            if (!rewrite) res.write(chunk);
          });
          answer.on('end', () => {
            if (rewrite) {
              const { 'content-length': _length, ...headers } = answer.headers;
              const ids = slots.map((s) => s.id);
              res.writeHead(answer.statusCode ?? 502, headers);
              res.write(rewriteBody(contentType, text, ids, rewrite));
            }
            for (const message of responseMessages(contentType, text)) {
              const found = slots.find((s) => s.id === message.id);
              if (!found || !message.result) continue;
              const result = message.result as CallToolResult;
              found.slot.result = result;
              found.slot.text = result.content
                .filter((c): c is { type: 'text'; text: string } => c.type === 'text')
                .map((c) => c.text)
                .join('\n');
              found.slot.images = result.content.filter((c) => c.type === 'image').length;
            }
            res.end();
          });
          answer.on('error', () => res.destroy());
        },
      );
      forward.on('error', () => res.destroy());
      res.on('close', () => forward.destroy());
      forward.end(body);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

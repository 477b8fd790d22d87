import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Conversation, ModelApi, Script, ToolDef } from './types.js';

/** A request the client sent to the model endpoint, as it came. */
export interface ModelRequest {
  method: string;
  path: string;
  body: Record<string, unknown> | undefined;
  /** true for the agent's own turns (the ones the script answered) */
  agentTurn: boolean;
  at: number;
}

export interface ModelServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** every request, in the order they came */
  requests: ModelRequest[];
  /** the agent's turns, parsed: the last one holds the whole conversation */
  turns: Conversation[];
  /** a step of the script that threw (the client then got an HTTP 500): the run's failure, shown by the test */
  errors: Error[];
  close(): Promise<void>;
}

/** How a route of one API answers: the conversation (SSE), or a fixed JSON body. */
export type Route = 'converse' | { status?: number; json: unknown };

export interface ApiServer extends ModelApi {
  route(method: string, path: string): Route;
}

/** The name the client gave a tool, for a script that names it bare ("page_snapshot"). */
function toolNamed(conversation: Conversation, name: string): ToolDef {
  const found = conversation.tools.find((t) => t.tool === name);
  if (!found) {
    const offered = conversation.tools.map((t) => t.name).join(', ') || 'none';
    throw new Error(`the script calls ${name}, which this request does not offer (tools: ${offered})`);
  }
  return found;
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * A stand-in model server on 127.0.0.1 (port 0) for one model API: it records every request and answers the
 * agent's turns with `script`, streamed as that API streams (SSE); side requests (titles, classifiers) get a
 * short text. Nothing here reaches the network.
 */
export async function startModelServer(
  api: ApiServer,
  script: Script,
  options: { onError?: (error: Error) => void } = {},
): Promise<ModelServer> {
  const requests: ModelRequest[] = [];
  const turns: Conversation[] = [];
  const errors: Error[] = [];
  let calls = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    const route = api.route(req.method ?? 'GET', url.pathname);
    const agentTurn = route === 'converse' && body !== undefined && api.isAgentTurn(body);
    requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, body, agentTurn, at: Date.now() });
    if (route !== 'converse') {
      res.writeHead(route.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(route.json));
      return;
    }
    let events: string;
    if (body && agentTurn) {
      const conversation = api.parse(body);
      turns.push(conversation);
      const turn = await script(conversation);
      events =
        'call' in turn
          ? api.answer({ call: toolNamed(conversation, turn.call), args: turn.args, id: `call_${++calls}` })
          : api.answer(turn);
    } else {
      events = api.side(body ?? {});
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.end(events);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      errors.push(error);
      options.onError?.(error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `stand-in model: ${error.message}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    turns,
    errors,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The ToolDef.tool of a Codex namespace itself (its name and description, without its tools). */
export const NAMESPACE = '(namespace)';

/** The name --register-shim gives the bridge in every client's config. */
export const SERVER = 'aiti';

/**
 * A tool's own name from the name a client gave it: Claude Code says mcp__aiti__page_snapshot, Codex puts
 * page_snapshot in a namespace mcp__aiti, Gemini CLI says mcp_aiti_page_snapshot.
 */
export function bareName(name: string): string {
  for (const prefix of [`mcp__${SERVER}__`, `mcp_${SERVER}_`, `${SERVER}__`])
    if (name.startsWith(prefix)) return name.slice(prefix.length);
  return name;
}

/** One SSE event block. */
export function sse(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

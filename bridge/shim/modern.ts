import { BridgeSession } from './bridge-session.js';
import { isResponse, type JsonRpcMessage, type JsonRpcRequest } from './jsonrpc.js';

/**
 * The 2026-07-28 side of the shim. A client of that revision sends no `initialize`: it may probe with
 * `server/discover`, and every request carries its protocol version, client info and capabilities in `_meta`.
 * The shim answers the probe with what the bridge itself answers (or, while no bridge runs, with the answer this
 * version's bridge gave at build time), and keeps its own Streamable HTTP session with the bridge for the
 * client, opened with the client's info and capabilities from the first request's envelope.
 */

export const MODERN_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';

/** The 2025-era revision the shim's own session with the bridge speaks for a 2026-07-28 client. */
const SESSION_VERSION = '2025-11-25';

/** Whether a message of the client is a 2026-07-28 one (it carries the envelope's protocol version). */
export function isModernMessage(message: JsonRpcMessage): boolean {
  const meta = message.params?._meta;
  return Boolean(meta && typeof meta === 'object' && MODERN_VERSION_KEY in meta);
}

/**
 * The `initialize` the shim opens its bridge session with for a 2026-07-28 client: that client's info and
 * capabilities, less what needs the server to speak first (sampling, elicitation, roots, Claude Code's channel),
 * which that revision no longer lets a server do; pushes then reach the client through the inbox notice.
 */
export function initializeFor(request: JsonRpcRequest): JsonRpcRequest {
  const meta = (request.params?._meta ?? {}) as Record<string, unknown>;
  const info = meta[CLIENT_INFO_KEY];
  const capabilities = { ...((meta[CLIENT_CAPABILITIES_KEY] as Record<string, unknown> | undefined) ?? {}) };
  delete capabilities.sampling;
  delete capabilities.elicitation;
  delete capabilities.roots;
  const experimental = capabilities.experimental;
  if (experimental && typeof experimental === 'object') {
    const rest = { ...(experimental as Record<string, unknown>) };
    delete rest['claude/channel'];
    capabilities.experimental = rest;
  }
  return {
    jsonrpc: '2.0',
    id: request.id,
    method: 'initialize',
    params: {
      protocolVersion: SESSION_VERSION,
      capabilities,
      clientInfo: info && typeof info === 'object' ? info : { name: 'mcp-client', version: '0' },
    },
  };
}

const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

/**
 * An answer as a 2026-07-28 client must get it: every result says it is complete (`resultType`, which the
 * 2025-era session with the bridge does not write) and names the server in its `_meta`.
 */
export function modernAnswer(message: JsonRpcMessage, serverInfo: unknown): JsonRpcMessage {
  const result = message.result;
  if (!isResponse(message) || !result || typeof result !== 'object' || Array.isArray(result)) return message;
  const fields = result as Record<string, unknown>;
  const meta = (fields._meta && typeof fields._meta === 'object' ? fields._meta : {}) as Record<string, unknown>;
  return {
    ...message,
    result: {
      ...fields,
      resultType: fields.resultType ?? 'complete',
      _meta: { ...meta, [SERVER_INFO_KEY]: meta[SERVER_INFO_KEY] ?? serverInfo },
    },
  };
}

/** What the bridge may send a 2026-07-28 client: answers, and the progress of the calls it made. */
export function reachesModernClient(message: JsonRpcMessage): boolean {
  return isResponse(message) || message.method === 'notifications/progress';
}

/**
 * Asks the bridge its own answer to a `server/discover`, the client's request as it came (its envelope says who
 * asks); undefined when no bridge answers in time, or it does not speak that revision.
 */
export async function discoverFromBridge(
  options: { endpoint: URL; socketPath?: string; token?: string },
  request: JsonRpcRequest,
  timeoutMs: number,
): Promise<JsonRpcMessage | undefined> {
  let answered: (message: JsonRpcMessage) => void = () => undefined;
  const answer = new Promise<JsonRpcMessage>((resolve) => (answered = resolve));
  const session = new BridgeSession({
    endpoint: options.endpoint,
    ...(options.socketPath ? { socketPath: options.socketPath } : {}),
    ...(options.token ? { token: options.token } : {}),
    onmessage: (message) => isResponse(message) && message.id === request.id && answered(message),
    onbroken: () => undefined,
  });
  const meta = request.params?._meta as Record<string, unknown> | undefined;
  const version = typeof meta?.[MODERN_VERSION_KEY] === 'string' ? (meta[MODERN_VERSION_KEY] as string) : '';
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      session
        .send(request, { 'mcp-protocol-version': version, 'mcp-method': request.method })
        .then(() => answer)
        .then((message) => (message.error ? undefined : message)),
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs))),
    ]).catch(() => undefined);
  } finally {
    clearTimeout(timer);
    await session.terminate();
  }
}

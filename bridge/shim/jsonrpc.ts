/**
 * JSON-RPC 2.0 messages as the shim handles them: it only routes them, so it checks their envelope (request,
 * notification or response) and leaves the content to the client and the bridge. No zod and no SDK here, so the
 * shim starts as fast as Node does.
 */
export type JsonRpcId = string | number;

export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcMessage {
  jsonrpc: '2.0';
  id?: JsonRpcId;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: JsonRpcError;
}

export type JsonRpcRequest = JsonRpcMessage & { id: JsonRpcId; method: string };

export function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return typeof message.method === 'string' && message.id !== undefined;
}

export function isNotification(message: JsonRpcMessage): boolean {
  return typeof message.method === 'string' && message.id === undefined;
}

export function isResponse(message: JsonRpcMessage): message is JsonRpcMessage & { id: JsonRpcId } {
  return message.method === undefined && message.id !== undefined && ('result' in message || 'error' in message);
}

/** One message from its JSON text, or undefined when it is not a JSON-RPC 2.0 object. */
export function parseMessage(text: string): JsonRpcMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return (value as { jsonrpc?: unknown }).jsonrpc === '2.0' ? (value as JsonRpcMessage) : undefined;
}

export function errorResponse(id: JsonRpcId, code: number, message: string): JsonRpcMessage {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

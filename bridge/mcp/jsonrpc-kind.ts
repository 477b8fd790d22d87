/**
 * What a JSON-RPC 2.0 message is, checked by hand as strictly as the SDK's zod schemas check it (only the keys
 * JSON-RPC allows, a string id or a safe integer one, object params), at a fraction of their cost on every call.
 * The server then validates a request's params against its handler's own schema.
 */
type JsonRpcKind = 'request' | 'notification' | 'response';

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const NOTIFICATION_KEYS = new Set(['jsonrpc', 'method', 'params']);
const RESULT_KEYS = new Set(['jsonrpc', 'id', 'result']);
const ERROR_KEYS = new Set(['jsonrpc', 'id', 'error']);

export function jsonRpcKind(value: unknown): JsonRpcKind | undefined {
  if (!isObject(value) || value.jsonrpc !== '2.0') return undefined;
  if (typeof value.method === 'string') {
    if (value.params !== undefined && !isObject(value.params)) return undefined;
    if ('id' in value) return isId(value.id) && onlyKeys(value, REQUEST_KEYS) ? 'request' : undefined;
    return onlyKeys(value, NOTIFICATION_KEYS) ? 'notification' : undefined;
  }
  if ('result' in value)
    return isId(value.id) && isObject(value.result) && onlyKeys(value, RESULT_KEYS) ? 'response' : undefined;
  if ('error' in value) {
    const error = value.error;
    const wellFormed = isObject(error) && Number.isInteger(error.code) && typeof error.message === 'string';
    return wellFormed && (value.id === undefined || isId(value.id)) && onlyKeys(value, ERROR_KEYS)
      ? 'response'
      : undefined;
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): boolean {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

function onlyKeys(value: Record<string, unknown>, allowed: Set<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

import type { Context, Next } from 'koa';
import { ZodError } from 'zod';
import { describeZodError } from '../protocol/index.js';
import {
  BridgeError,
  Conflict,
  Forbidden,
  Invalid,
  NotFound,
  RateLimited,
  Refused,
  TooMany,
  Unavailable,
} from '../errors.js';
import type { Logger } from '../log.js';

/** An error of the HTTP edge itself (Host, token, body size): its message is sent as `{error, field?}` with its status. */
export class HttpError extends Error {
  readonly expose = true;
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** What every 401 says (RFC 6750): send a bearer token. */
export const AUTHENTICATE = 'Bearer realm="aiti-bridge"';

/** The status of each domain error (bridge/errors.ts): the one place the domain meets HTTP status codes. */
export function statusOf(error: BridgeError): number {
  if (error instanceof Invalid) return 400;
  if (error instanceof Forbidden) return 403;
  if (error instanceof NotFound) return 404;
  if (error instanceof Conflict || error instanceof Refused) return 409;
  if (error instanceof TooMany) return 429;
  if (error instanceof Unavailable) return 503;
  return 400;
}

/** What a client is told of an error meant for it: a zod failure or a domain error; undefined for any other. */
export interface ErrorAnswer {
  status: number;
  body: { error: string; field?: string };
  /** sent as Retry-After */
  retryAfterS?: number;
}

export function answerFor(error: unknown): ErrorAnswer | undefined {
  if (error instanceof ZodError) {
    const { message, field } = describeZodError(error);
    return { status: 400, body: { error: message, ...(field ? { field } : {}) } };
  }
  if (error instanceof BridgeError) {
    return {
      status: statusOf(error),
      body: { error: error.message, ...(error.field ? { field: error.field } : {}) },
      ...(error instanceof RateLimited ? { retryAfterS: error.retryAfterS } : {}),
    };
  }
  const failed = systemFailure(error);
  if (failed) return { status: 503, body: { error: failed } };
  return undefined;
}

/**
 * A system call that failed (a file the disk refused, too many open files) and reached the edge without a domain
 * error around it: a fault we can name, so a 503 that names the call, the file and the errno — never a 500.
 */
function systemFailure(error: unknown): string | undefined {
  const { code, syscall, path } = (error ?? {}) as Partial<NodeJS.ErrnoException>;
  if (typeof code !== 'string' || typeof syscall !== 'string') return undefined;
  return `the bridge could not ${syscall}${path ? ` ${path}` : ''}: ${code}; nothing more was done — check the disk of the data dir and try again`;
}

/** The one place that turns a thrown error into an answer. Only errors meant for the client show their message. */
export function errorResponder(log: Logger) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (error) {
      const answer = answerFor(error);
      if (answer) {
        if (ctx.headerSent || !ctx.writable) return;
        ctx.status = answer.status;
        if (answer.retryAfterS) ctx.set('Retry-After', String(answer.retryAfterS));
        ctx.body = answer.body;
        return;
      }
      const err = error as { status?: number; expose?: boolean; message?: string; field?: string };
      const status = typeof err.status === 'number' && err.status >= 400 && err.status < 600 ? err.status : 500;
      if (status >= 500 || !err.expose) log.error(`${ctx.method} ${ctx.path} failed:`, error);
      if (ctx.headerSent || !ctx.writable) return;
      ctx.status = status;
      // a bearer token is the only way in; no OAuth metadata, which makes some MCP clients ignore a static header
      if (status === 401) ctx.set('WWW-Authenticate', AUTHENTICATE);
      ctx.body = {
        error: err.expose && err.message ? err.message : 'internal error',
        ...(err.field ? { field: err.field } : {}),
      };
    }
  };
}

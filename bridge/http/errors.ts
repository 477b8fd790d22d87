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

/** The one place that turns a thrown error into an answer. Only errors meant for the client show their message. */
export function errorResponder(log: Logger) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (error) {
      if (error instanceof ZodError) {
        const { message, field } = describeZodError(error);
        ctx.status = 400;
        ctx.body = { error: message, ...(field ? { field } : {}) };
        return;
      }
      if (error instanceof BridgeError) {
        if (ctx.headerSent || !ctx.writable) return;
        ctx.status = statusOf(error);
        if (error instanceof RateLimited) ctx.set('Retry-After', String(error.retryAfterS));
        ctx.body = { error: error.message, ...(error.field ? { field: error.field } : {}) };
        return;
      }
      const err = error as { status?: number; expose?: boolean; message?: string; field?: string };
      const status = typeof err.status === 'number' && err.status >= 400 && err.status < 600 ? err.status : 500;
      if (status >= 500 || !err.expose) log.error(`${ctx.method} ${ctx.path} failed:`, error);
      if (ctx.headerSent || !ctx.writable) return;
      ctx.status = status;
      ctx.body = {
        error: err.expose && err.message ? err.message : 'internal error',
        ...(err.field ? { field: err.field } : {}),
      };
    }
  };
}

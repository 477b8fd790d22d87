import type { Context } from 'koa';
import type { z } from 'zod';
import { DEFAULT_LIMITS, type LimitCounters } from '../limits.js';
import { HttpError } from './errors.js';
import { nestsDeeperThan } from './json-depth.js';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * Reads a JSON body whatever its Content-Type (pages post text/plain to skip the CORS preflight).
 * 413 past the limit, 400 with the parser's reason when it is not JSON.
 */
export async function readJson(ctx: Context, limit = DEFAULT_BODY_LIMIT): Promise<unknown> {
  const declared = Number(ctx.get('content-length') || NaN);
  if (declared > limit) throw new HttpError(413, `request body is ${declared} bytes; the limit is ${limit}`);
  const text = await readText(ctx, limit);
  if (!text.trim()) throw new HttpError(400, 'request body is empty; send a JSON object');
  const counters = (ctx.state as { limits?: LimitCounters }).limits;
  const depth = counters?.limits.jsonDepth ?? DEFAULT_LIMITS.jsonDepth;
  if (nestsDeeperThan(text, depth)) {
    counters?.refused('jsonDepth');
    throw new HttpError(400, `request body is JSON nested deeper than ${depth} levels; send a flatter value`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, `request body is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * The body as text, 413 past the limit. Events rather than `for await`: the stream's async iterator cost a small
 * push more CPU than the rest of reading it.
 */
function readText(ctx: Context, limit: number): Promise<string> {
  const req = ctx.req;
  // read already (a second read of one request): nothing more will come, and waiting for 'end' would hang
  if (req.readableEnded) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (error?: Error) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (error) reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        ctx.set('Connection', 'close');
        req.pause();
        done(new HttpError(413, `request body is over the limit of ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(
        chunks.length === 1 ? (chunks[0] ?? Buffer.alloc(0)).toString('utf8') : Buffer.concat(chunks).toString('utf8'),
      );
    };
    const onError = (error: Error) => done(error);
    // a client gone before the end of its body: nobody reads the answer, but the request must not hang
    const onClose = () => done(new HttpError(400, 'the request closed before its body was complete'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** Reads and validates a JSON body: 400 naming the field on a mismatch. */
export async function readBody<S extends z.ZodType>(ctx: Context, schema: S, limit?: number): Promise<z.infer<S>> {
  return schema.parse(await readJson(ctx, limit));
}

/** Validates the query string; zod errors become 400 naming the field. */
export function readQuery<S extends z.ZodType>(ctx: Context, schema: S): z.infer<S> {
  return schema.parse({ ...ctx.query });
}

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
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      ctx.set('Connection', 'close');
      throw new HttpError(413, `request body is over the limit of ${limit} bytes`);
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
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

/** Reads and validates a JSON body: 400 naming the field on a mismatch. */
export async function readBody<S extends z.ZodType>(ctx: Context, schema: S, limit?: number): Promise<z.infer<S>> {
  return schema.parse(await readJson(ctx, limit));
}

/** Validates the query string; zod errors become 400 naming the field. */
export function readQuery<S extends z.ZodType>(ctx: Context, schema: S): z.infer<S> {
  return schema.parse({ ...ctx.query });
}

import type { Context, Next } from 'koa';
import { Forbidden } from '../errors.js';
import { sameSecret } from '../token.js';
import { hostnameOf, isLoopbackHostname } from '../loopback.js';
import { HttpError } from './errors.js';

export { hostnameOf, isLoopbackHostname };

/**
 * DNS-rebinding defence: a request's Host must be a loopback name or an allowed host. Returns the check for one
 * Host header, which throws Forbidden (403) naming it; `hostGuard` runs it on every request, the result socket on its upgrade.
 */
export function hostCheck(allowedHosts: readonly string[]): (host: string) => void {
  const allowed = new Set(allowedHosts.map((h) => h.toLowerCase()));
  return (host) => {
    const name = hostnameOf(host).toLowerCase();
    if (!isLoopbackHostname(name) && !allowed.has(name)) {
      throw new Forbidden(
        `Host "${host}" is not allowed; the bridge answers loopback names (add it with --allowed-hosts)`,
      );
    }
  };
}

export function hostGuard(allowedHosts: readonly string[]) {
  const check = hostCheck(allowedHosts);
  return async (ctx: Context, next: Next) => {
    check(ctx.get('host'));
    await next();
  };
}

export interface WindowGuardOptions {
  /** origins allowed besides the bridge's own */
  allowedOrigins: readonly string[];
  /** the bridge's own origins, known once it listens */
  ownOrigins: () => readonly string[];
}

/** A browser request (it carries Origin) to the MCP or window endpoints is refused unless the origin is allowed. */
export function checkOrigin(ctx: Context, options: WindowGuardOptions): void {
  const origin = ctx.get('origin');
  if (!origin) return;
  if (options.ownOrigins().includes(origin) || options.allowedOrigins.includes(origin)) return;
  throw new HttpError(
    403,
    `browser origin "${origin}" may not call this endpoint; only the bridge's own window is allowed (add it with --allowed-origins)`,
  );
}

/**
 * The human's token: `Authorization: Bearer <token>`, or `?token=` on the one route where headers cannot be set
 * (the window's EventSource, `GET /bridge/sse?role=ai`). A token in a URL ends up in logs and histories, so no
 * other route takes it there. With `agentToken`, the agents' token passes too; returns which one was given.
 */
export function checkToken(ctx: Context, token: string, agentToken?: string): 'human' | 'agent' {
  const header = ctx.get('authorization');
  const inQuery = typeof ctx.query.token === 'string' ? ctx.query.token : '';
  // the window stream is routed under its own path (http/zones.ts STREAM_PATHS) before the guard runs, and only
  // when the query says role=ai
  const eventSource = ctx.method === 'GET' && ctx.path === '/bridge/sse/ai' && ctx.query.role === 'ai';
  if (inQuery && !eventSource && !header)
    throw new HttpError(
      401,
      `?token= is accepted only on GET /bridge/sse?role=ai (EventSource cannot send headers); send Authorization: Bearer <token> to ${ctx.method} ${ctx.path}`,
    );
  const given = header.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : inQuery;
  if (!given)
    throw new HttpError(
      401,
      'missing token: send Authorization: Bearer <token> (the token is printed at start and stored in <data-dir>/aiti-bridge/token)',
    );
  // Stryker disable next-line StringLiteral: equivalent, callers only ask whether it is 'agent'
  if (sameSecret(given, token)) return 'human';
  if (agentToken && sameSecret(given, agentToken)) return 'agent';
  throw new HttpError(401, 'wrong token');
}

/** Middleware for window endpoints: Origin first (a page must never reach them), then the token. */
export function windowGuard(options: WindowGuardOptions & { token: string; agentToken: string }) {
  return async (ctx: Context, next: Next) => {
    checkOrigin(ctx, options);
    if (checkToken(ctx, options.token, options.agentToken) === 'agent') {
      throw new HttpError(
        403,
        "this is the agent token (<data-dir>/aiti-bridge/agent-token): agents may not answer asks or use the window's routes; the window uses the human's token (<data-dir>/aiti-bridge/token)",
      );
    }
    await next();
  };
}

/** Page endpoints are called from any dev server: CORS is open for them (they are secret-checked instead). */
export function openCors() {
  return async (ctx: Context, next: Next) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    // a page agent reads when a rate-limited claim may come back
    ctx.set('Access-Control-Expose-Headers', 'Retry-After');
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      ctx.set('Access-Control-Allow-Headers', 'Content-Type');
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    await next();
  };
}

import type { Middleware } from 'koa';
import type { BridgeContext } from '../context.js';

/**
 * The page zone's rate limits (bridge/pages/origin-rate.ts), taken before any body is read or any secret
 * checked: a claim from the claims budget, every other page request from the page-requests budget, both keyed
 * on the browser's Origin. A refusal is a RateLimited 429, which the tarpit holds before it is answered.
 */
export function pageRate(bridge: BridgeContext): Middleware {
  return async (ctx, next) => {
    const budget = ctx.path === '/bridge/claim' ? bridge.claimRate : bridge.pageRate;
    budget.take(ctx.get('origin') || undefined);
    await next();
  };
}

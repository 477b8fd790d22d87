import { TokenProofQuery } from '../protocol/index.js';
import { readQuery } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import type { RouteSetup } from '../http/zones.js';
import { tokenProof } from '../token.js';

/**
 * GET /bridge/token-proof?nonce=&of= (open zone): proves the bridge holds the human's token (or with `of=agent` the
 * agents' token) without revealing it (see tokenProof). The window, the desktop app and the stdio shim ask before
 * every connection that sends a token, so a program that took the port after the bridge stopped gets none.
 */
export const tokenProofRoutes: RouteSetup = (router, bridge) => {
  router.get('/bridge/token-proof', (ctx) => {
    const { nonce, of, id } = readQuery(ctx, TokenProofQuery);
    if (id)
      throw new HttpError(
        400,
        'agent tokens made with aiti-bridge agent-token are for the remote listener (--remote): prove them there',
        'id',
      );
    const token = of === 'agent' ? bridge.agentToken : bridge.token;
    // a Unix socket has no port: both sides use 0 there
    ctx.body = { proof: tokenProof(token, nonce, ctx.socket.localPort ?? 0) };
  });
};

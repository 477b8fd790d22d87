import { TokenProofQuery } from '../protocol/index.js';
import { readQuery } from '../http/body.js';
import type { RouteSetup } from '../http/zones.js';
import { tokenProof } from '../token.js';

/**
 * GET /bridge/token-proof?nonce= (open zone): proves the bridge holds the human's token without revealing it (see
 * tokenProof). The desktop app asks before it attaches to a bridge already on the port and hands it the token.
 */
export const tokenProofRoutes: RouteSetup = (router, bridge) => {
  router.get('/bridge/token-proof', (ctx) => {
    const { nonce } = readQuery(ctx, TokenProofQuery);
    ctx.body = { proof: tokenProof(bridge.token, nonce, ctx.socket.localPort ?? 0) };
  });
};

import { TokenProofQuery } from '../protocol/index.js';
import { readQuery } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import type { RouteSetup } from '../http/zones.js';

/**
 * GET /bridge/token-proof?nonce=&of=agent&id= on the remote listener: proves the bridge holds agent token `id`
 * (credentials.ts credentialProof), so a shim on another machine sends its token only to the bridge that made it,
 * not to whatever took the tunnel's port after the tunnel went down. An id nobody holds gets a decoy proof.
 */
export const credentialProofRoutes: RouteSetup = (router, bridge) => {
  router.get('/bridge/token-proof', (ctx) => {
    const { nonce, of, id } = readQuery(ctx, TokenProofQuery);
    if (of !== 'agent' || !id)
      throw new HttpError(
        400,
        "the remote listener proves agent tokens only (of=agent&id=<the token's id>); the human's token and the local agent token are for the local listener",
        'id',
      );
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { proof: bridge.agentTokens.proof(id, nonce) };
  });
};

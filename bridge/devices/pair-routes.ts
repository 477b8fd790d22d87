import type { Context } from 'koa';
import {
  DeviceChallengeQuery,
  DeviceSessionBody,
  PairProofQuery,
  PairStartBody,
  PairStatusBody,
} from '../protocol/index.js';
import { readBody, readQuery } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import type { RouteSetup } from '../http/zones.js';
import { REQUEST_TTL_MS } from './pairing.js';

/**
 * A request to the pairing and sign-in routes must be the window's own: JSON (a web page's `no-cors` post can send
 * only text/plain, a form or multipart, and a CORS one is preflighted and refused), and a browser's Origin, when sent,
 * must be this listener's (the request's Host, or --remote-url). Checked before the body is read or anything counted,
 * so a web page in the human's browser cannot spend the pairing budget or reach the routes at all.
 */
function ownRequest(ctx: Context, remoteUrl: string | undefined): void {
  const origin = ctx.get('origin');
  if (origin) {
    let host = origin;
    try {
      host = new URL(origin).host;
    } catch {
      // judged as given
    }
    const own = remoteUrl ? new URL(remoteUrl).host : undefined;
    if (host !== ctx.get('host') && host !== own)
      throw new HttpError(
        403,
        `browser origin "${origin}" may not pair or sign in here; only the window served here may`,
      );
  }
  const site = ctx.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none')
    throw new HttpError(403, `a ${site} request may not pair or sign in here; only the window served here may`);
  if (ctx.method === 'POST' && !ctx.is('application/json'))
    throw new HttpError(
      415,
      `send JSON (Content-Type: application/json), not "${ctx.get('content-type') || 'nothing'}"`,
      'content-type',
    );
}

/**
 * The device's half of pairing and signing in, in the remote listener's open zone (it has no session yet):
 *
 * - `GET /bridge/pair/proof?nonce=`: the bridge proves it holds the one-time code before the device sends it;
 * - `POST /bridge/pair/start {code, name, publicKey}`, then `POST /bridge/pair/status {secret}` until the desk
 *   answers; approved, the device collects its id and the bridge's proof key, once;
 * - `GET /bridge/device/challenge?id=&nonce=` and `POST /bridge/device/session {id, challenge, signature}`: at each
 *   (re)connection the bridge proves itself and the device signs in (device-sessions.ts), getting a session token.
 *
 * No cookie is ever set: a cookie is the host's, not the port's, and went to any server on another port of that
 * host, or to a program that took this port while the bridge was down.
 */
export const pairRoutes: RouteSetup = (router, bridge) => {
  router.get('/bridge/pair/proof', (ctx) => {
    ownRequest(ctx, bridge.remoteUrl());
    const { nonce } = readQuery(ctx, PairProofQuery);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { proof: bridge.pairings.codeProof(nonce) };
  });

  router.post('/bridge/pair/start', async (ctx) => {
    ownRequest(ctx, bridge.remoteUrl());
    const { code, name, publicKey } = await readBody(ctx, PairStartBody);
    const request = bridge.pairings.start(code, name, publicKey);
    ctx.body = {
      secret: request.secret,
      phrase: request.phrase,
      expiresAt: new Date(request.startedAt + REQUEST_TTL_MS).toISOString(),
    };
  });

  router.post('/bridge/pair/status', async (ctx) => {
    ownRequest(ctx, bridge.remoteUrl());
    const { secret } = await readBody(ctx, PairStatusBody);
    const { state, device } = bridge.pairings.collect(secret);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { state, ...(device ? { deviceId: device.id, proofKey: device.proofKey } : {}) };
  });

  router.get('/bridge/device/challenge', (ctx) => {
    ownRequest(ctx, bridge.remoteUrl());
    const { id, nonce } = readQuery(ctx, DeviceChallengeQuery);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = bridge.deviceSessions.challenge(id, nonce);
  });

  router.post('/bridge/device/session', async (ctx) => {
    ownRequest(ctx, bridge.remoteUrl());
    const { id, challenge, signature } = await readBody(ctx, DeviceSessionBody);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { token: bridge.deviceSessions.open(id, challenge, signature) };
  });
};

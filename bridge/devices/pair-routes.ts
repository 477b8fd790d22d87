import { PairStartBody, PairStatusBody } from '../protocol/index.js';
import { readBody } from '../http/body.js';
import { hostnameOf, isLoopbackHostname } from '../http/guard.js';
import type { RouteSetup } from '../http/zones.js';
import { REQUEST_TTL_MS } from './pairing.js';

/** The device cookie's name (remote/guard.ts reads it back). */
export const DEVICE_COOKIE = 'aiti_device';
const YEAR_S = 365 * 24 * 3600;

/**
 * The device's half of pairing, in the remote listener's open zone (it has no credential yet): send the one-time
 * code and a name, then ask until the desk answers. Approved, the answer sets the device token as a cookie the
 * window's scripts cannot read (HttpOnly) and no other site's request carries (SameSite=Strict).
 *
 * `Secure` unless the browser is on plain HTTP at a loopback name: that is a tunnel ending on the browser's own
 * machine (ssh -L, VS Code forwarding), where the only unencrypted hop is that machine's loopback, and where some
 * browsers drop Secure cookies. On a network address, or a name a tunnel serves over HTTPS (Tailscale Serve,
 * cloudflared), the cookie is Secure: a browser reaching the bridge over plain HTTP on a LAN then keeps no token at
 * all, and the pairing page says to use HTTPS.
 */
export const pairRoutes: RouteSetup = (router, bridge) => {
  router.post('/bridge/pair/start', async (ctx) => {
    const { code, name } = await readBody(ctx, PairStartBody);
    const request = bridge.pairings.start(code, name);
    ctx.body = {
      secret: request.secret,
      phrase: request.phrase,
      expiresAt: new Date(request.startedAt + REQUEST_TTL_MS).toISOString(),
    };
  });

  router.post('/bridge/pair/status', async (ctx) => {
    const { secret } = await readBody(ctx, PairStatusBody);
    const { state, token } = bridge.pairings.collect(secret);
    if (token) {
      const plainLoopback = !ctx.secure && isLoopbackHostname(hostnameOf(ctx.get('host')));
      ctx.set(
        'Set-Cookie',
        `${DEVICE_COOKIE}=${token}; Path=/; Max-Age=${YEAR_S}; HttpOnly; SameSite=Strict${plainLoopback ? '' : '; Secure'}`,
      );
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { state };
  });
};

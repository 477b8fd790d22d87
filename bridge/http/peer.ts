import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Context, Next } from 'koa';
import { Forbidden } from '../errors.js';
import { isLoopbackAddress } from '../loopback.js';

/**
 * Local means a local peer. The listener serves a request only when the socket it came on is a loopback one (or a
 * Unix socket, whose directory the file system guards), whatever its Host or Origin say: those are the caller's
 * own words. A request that names a proxy or a tunnel in its headers came from elsewhere through a program on
 * this machine, so it is refused as well: nothing that reaches loopback that way may count as the desk.
 */

/** Sockets the Unix-socket listener accepted (bridge.ts marks them): their peers passed the directory's 0700. */
const unixPeers = new WeakSet<Socket>();

export function acceptUnixPeer(socket: Socket): void {
  unixPeers.add(socket);
}

/** Headers that proxies, tunnels and identity-aware front ends add (ngrok, cloudflared, Tailscale Serve, nginx …). */
const PROXY_HEADERS = ['forwarded', 'via', 'x-real-ip', 'x-client-ip', 'true-client-ip', 'x-cluster-client-ip'];
const PROXY_PREFIXES = ['x-forwarded-', 'cf-', 'tailscale-', 'fly-', 'x-original-forwarded-'];

/** How someone elsewhere reaches this bridge. */
export function reachFromElsewhere(port: number | undefined): string {
  const p = port ?? 8777;
  return `to use the bridge from another machine, start it with --remote [HOST:]PORT, the listener where every request needs a device token (pair a phone from the window) or an agent token (aiti-bridge agent-token create NAME), and reach that port through SSH (ssh -R / ssh -L), Tailscale Serve or HTTPS (README "Away from the desk"); or forward this port over SSH (ssh -L ${p}:127.0.0.1:${p} <this machine>) and connect to 127.0.0.1:${p} there`;
}

/** The first proxy or identity header a request carries, as the client wrote it, or undefined. */
export function proxyHeaderOf(req: IncomingMessage): string | undefined {
  // rawHeaders alternates names and values: only the names count
  return req.rawHeaders.find((name, i) => i % 2 === 0 && isProxyHeader(name.toLowerCase()));
}

function isProxyHeader(lower: string): boolean {
  return PROXY_HEADERS.includes(lower) || PROXY_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/** Throws Forbidden (403) naming why, unless the request came from this machine, directly. */
export function checkPeer(req: IncomingMessage): void {
  const socket = req.socket;
  const local = unixPeers.has(socket) || isLoopbackAddress(socket.remoteAddress);
  if (!local) {
    throw new Forbidden(
      `the bridge serves programs on this machine only, and ${socket.remoteAddress ?? 'this peer'} is not a loopback address; ${reachFromElsewhere(socket.localPort)}`,
    );
  }
  const header = proxyHeaderOf(req);
  if (header) {
    throw new Forbidden(
      `this request came through a proxy or tunnel (it carries a "${header}" header), and the bridge's local listener serves programs on this machine only; ${reachFromElsewhere(socket.localPort)}`,
    );
  }
}

/** The peer check as the first middleware, before the Host check and every zone. */
export function peerGuard() {
  return async (ctx: Context, next: Next) => {
    checkPeer(ctx.req);
    await next();
  };
}

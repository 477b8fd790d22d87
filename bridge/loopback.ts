/**
 * What "local" means to the bridge: loopback host names (the Host check in http/guard.ts and the page origins that
 * need no approval in pages/origins.ts) and loopback socket addresses (the peer check in http/peer.ts).
 */

const LOOPBACK_NAMES = new Set(['localhost', '::1', '[::1]']);
/** 127.0.0.0/8 (127.0.0.1 among them), written as Node and browsers write an IPv4 address: the whole string, nothing after it */
const IPV4_LOOPBACK = /^127(\.\d{1,3}){3}$/;

export function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return LOOPBACK_NAMES.has(h) || h.endsWith('.localhost') || IPV4_LOOPBACK.test(h);
}

/** The host part of a Host header: `[::1]:8777` → `[::1]`, `a.b:80` → `a.b`. */
export function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/**
 * Whether a socket's peer address (as Node reports `socket.remoteAddress`, IPv6 in its compressed form) is this
 * machine's loopback: 127/8, ::1, or 127/8 mapped into IPv6 (`::ffff:127.0.0.1`, what a dual-stack listener
 * reports for an IPv4 peer). A socket whose peer already left has no address: not loopback.
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase();
  if (a === '::1') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice('::ffff:'.length) : a;
  return IPV4_LOOPBACK.test(v4);
}

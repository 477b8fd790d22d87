import type { RouterMiddleware } from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { AgentTokenRecord } from '../agents/tokens.js';
import type { BridgeContext } from '../context.js';
import { parseCredential } from '../credentials.js';
import type { Device } from '../devices/devices.js';
import { DEVICE_COOKIE } from '../devices/pair-routes.js';
import { HttpError } from '../http/errors.js';
import type { WindowParty, ZoneGuards } from '../http/zones.js';

/**
 * The remote listener lets nothing in on where a request comes from: every tunnel (ssh, VS Code forwarding,
 * Tailscale Serve, cloudflared, ngrok) delivers from 127.0.0.1, and Host and Origin are the caller's own words. A
 * request is someone only by its credential: a paired device's token (the human's role: a cookie, or a bearer) or
 * an agent token (an agent's role, bound to its agent id). Everything but the open zone needs one.
 */
export type Credential = { kind: 'device'; device: Device } | { kind: 'agent'; token: AgentTokenRecord };

const HOW_IN =
  'this is the bridge\'s remote listener: every request needs a device token (pair this device from the desk window: "Pair a device") or an agent token (aiti-bridge agent-token create NAME on the bridge\'s machine, then Authorization: Bearer <token>)';

interface Found {
  credential?: Credential;
  /** why the credential given was refused, for the 401 */
  problem?: string;
  viaCookie?: boolean;
}

function cookieOf(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function identify(ctx: Context, bridge: BridgeContext): Found {
  const header = ctx.get('authorization');
  const bearer = header.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : undefined;
  if (header && bearer === undefined) return { problem: 'Authorization must be "Bearer <token>"' };
  const cookie = cookieOf(ctx.get('cookie'), DEVICE_COOKIE);
  const given = bearer ?? cookie;
  if (!given) return {};
  const parsed = parseCredential(given);
  if (!parsed)
    return {
      problem:
        "the human's token and the local agent token are for the local listener only; on the remote listener use a paired device or an agent token (aiti-bridge agent-token create NAME)",
    };
  if (parsed.kind === 'device') {
    const device = bridge.devices.verify(given);
    if (!device)
      return { problem: 'this device is not paired (it was revoked, or paired with another bridge): pair it again' };
    return { credential: { kind: 'device', device }, viaCookie: bearer === undefined };
  }
  if (bearer === undefined) return { problem: 'an agent token goes in Authorization: Bearer, not a cookie' };
  const token = bridge.agentTokens.verify(given);
  if (!token) return { problem: bridge.agentTokens.refusal(given) };
  return { credential: { kind: 'agent', token } };
}

/**
 * A browser holding the device cookie sends it on every request to this host, including one a page on another
 * port of the same site makes (SameSite counts sites, not ports). So a cookie counts only on the window's own
 * requests: an Origin, when sent, must be this Host, and Fetch Metadata must say same-origin (or a typed address).
 */
function crossSiteProblem(ctx: Context): string | undefined {
  const origin = ctx.get('origin');
  if (origin) {
    let host = '';
    try {
      host = new URL(origin).host;
    } catch {
      host = origin;
    }
    if (host !== ctx.get('host'))
      return `browser origin "${origin}" may not use this device's session; only the window served here may`;
  }
  const site = ctx.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none')
    return `a ${site} request may not use this device's session; only the window served here may`;
  return undefined;
}

/** Finds the request's credential (before the open zone, which still serves a revoked device its pages). */
export function identifyCredential(bridge: BridgeContext): Middleware {
  return async (ctx, next) => {
    const found = identify(ctx, bridge);
    const problem = found.problem ?? (found.viaCookie ? crossSiteProblem(ctx) : undefined);
    if (problem) ctx.state.credentialProblem = problem;
    else if (found.credential) {
      ctx.state.credential = found.credential;
      const key =
        found.credential.kind === 'device'
          ? `device:${found.credential.device.id}`
          : `agent:${found.credential.token.id}`;
      bridge.credentialLinks.track(key, ctx.res);
    }
    await next();
  };
}

export function credentialOf(ctx: { state: unknown }): Credential | undefined {
  return (ctx.state as { credential?: Credential }).credential;
}

/** After the open zone: nothing more without a credential (a 401 naming how in, with WWW-Authenticate). */
export function requireCredential(): Middleware {
  return async (ctx, next) => {
    if (!credentialOf(ctx)) {
      const problem = (ctx.state as { credentialProblem?: string }).credentialProblem;
      throw new HttpError(401, problem ? `${problem}; ${HOW_IN}` : HOW_IN);
    }
    await next();
  };
}

/** The remote listener's zone guards: devices to the window, agents to MCP, nobody to the desk. */
export function remoteGuards(): ZoneGuards {
  const window: RouterMiddleware = async (ctx, next) => {
    const credential = credentialOf(ctx);
    if (credential?.kind !== 'device')
      throw new HttpError(
        403,
        "an agent token may not use the window's routes (agents may not answer asks); the window uses a paired device",
      );
    ctx.state.party = 'device' satisfies WindowParty;
    ctx.state.deviceName = credential.device.name;
    await next();
  };
  const desk: RouterMiddleware = async () => {
    throw new HttpError(
      403,
      "only the desk window (on the bridge's machine, with the human's token) pairs and revokes devices and makes agent tokens; a paired device cannot",
    );
  };
  const mcp: RouterMiddleware = async (ctx, next) => {
    const credential = credentialOf(ctx);
    if (credential?.kind !== 'agent')
      throw new HttpError(
        403,
        'a device token is for the window; an agent uses an agent token (aiti-bridge agent-token create NAME)',
      );
    ctx.state.boundAgent = credential.token.name;
    await next();
  };
  return { window, desk, mcp };
}

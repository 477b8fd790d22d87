import type { RouterMiddleware } from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { AgentTokenRecord } from '../agents/tokens.js';
import type { BridgeContext } from '../context.js';
import { parseCredential } from '../credentials.js';
import type { Device } from '../devices/devices.js';
import { HttpError } from '../http/errors.js';
import type { WindowParty, ZoneGuards } from '../http/zones.js';

/**
 * The remote listener lets nothing in on where a request comes from: every tunnel (ssh, VS Code forwarding,
 * Tailscale Serve, cloudflared, ngrok) delivers from 127.0.0.1, and Host and Origin are the caller's own words. A
 * request is someone only by its credential: a paired device's session (the human's role: a bearer its window got
 * by signing in, devices/device-sessions.ts) or an agent token (an agent's role, bound to its agent id). Everything
 * but the open zone needs one. No cookie counts: a cookie belongs to a host, not to a port.
 */
export type Credential = { kind: 'device'; device: Device } | { kind: 'agent'; token: AgentTokenRecord };

const HOW_IN =
  'this is the bridge\'s remote listener: every request needs a device token (pair this device from the desk window: "Pair a device") or an agent token (aiti-bridge agent-token create NAME on the bridge\'s machine, then Authorization: Bearer <token>)';

interface Found {
  credential?: Credential;
  /** why the credential given was refused, for the 401 */
  problem?: string;
}

async function identify(ctx: Context, bridge: BridgeContext): Promise<Found> {
  const header = ctx.get('authorization');
  const bearer = header.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : undefined;
  if (header && bearer === undefined) return { problem: 'Authorization must be "Bearer <token>"' };
  // the window's EventSource cannot send headers: its device session goes in the query, on that route only
  const eventSource = ctx.method === 'GET' && ctx.path === '/bridge/sse/ai' && typeof ctx.query.token === 'string';
  const given = bearer ?? (eventSource ? String(ctx.query.token) : undefined);
  if (!given) return {};
  const parsed = parseCredential(given);
  if (!parsed)
    return {
      problem:
        "the human's token and the local agent token are for the local listener only; on the remote listener use a paired device or an agent token (aiti-bridge agent-token create NAME)",
    };
  if (parsed.kind === 'device') {
    const device = bridge.deviceSessions.verify(given, parsed.id);
    if (!device)
      return {
        problem:
          'this device is not signed in (it was revoked, paired with another bridge, or the bridge restarted): sign in again, or pair it again',
      };
    return { credential: { kind: 'device', device } };
  }
  if (eventSource && bearer === undefined) return { problem: 'an agent token goes in Authorization: Bearer' };
  const token = await bridge.agentTokens.verify(given);
  if (!token) return { problem: bridge.agentTokens.refusal(given) };
  return { credential: { kind: 'agent', token } };
}

/** Finds the request's credential (before the open zone, which still serves a revoked device its pages). */
export function identifyCredential(bridge: BridgeContext): Middleware {
  return async (ctx, next) => {
    const found = await identify(ctx, bridge);
    if (found.problem) ctx.state.credentialProblem = found.problem;
    else if (found.credential) {
      ctx.state.credential = found.credential;
      // the connection leaves the anonymous budget (http/slow-readers.ts); a TLS request's socket is the TLS one
      bridge.limits.credentialed(ctx.req.socket);
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

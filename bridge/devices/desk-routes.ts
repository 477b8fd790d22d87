import {
  AgentTokenCreateBody,
  AgentTokenRevokeBody,
  DeviceRevokeBody,
  PairingDecisionBody,
} from '../protocol/index.js';
import { readBody } from '../http/body.js';
import type { RouteSetup } from '../http/zones.js';
import { Conflict } from '../errors.js';
import { DEFAULT_EXPIRY, parseExpiry } from '../agents/tokens.js';
import { tokenSetup } from '../agents/token-setup.js';
import { qrSvg } from './qr.js';
import { devicesEvent } from './view.js';

/** How the bridge knows agent id `name`, when it does: a session took it, it is listed, or it has messages. */
function knownAgent(bridge: Parameters<RouteSetup>[1], name: string): string | undefined {
  if (bridge.claims.owner(name)) return 'a session took this id';
  if (bridge.agents.all().some((a) => a.agentId === name)) return 'it is connected, or was lately';
  if (Object.hasOwn(bridge.inbox.countsByAgent(), name)) return 'it has an inbox';
  return undefined;
}

/**
 * The desk's side (the desk zone: the human's token, on the local listener only): open a pairing code, approve or
 * refuse a device, list and revoke devices, make and revoke agent tokens. Changes reach the desk's windows as the
 * `devices` event (bridge.ts broadcasts it).
 */
export const deskRoutes: RouteSetup = (router, bridge) => {
  router.get('/bridge/devices', (ctx) => {
    ctx.body = devicesEvent(bridge);
  });

  router.post('/bridge/pairing', (ctx) => {
    const remote = bridge.remoteUrl();
    if (!remote)
      throw new Conflict(
        'pairing needs the remote listener: start the bridge with --remote [HOST:]PORT (README "Away from the desk")',
      );
    const { code, expiresAt } = bridge.pairings.openCode();
    const url = `${remote}/aiti/ui/pair#code=${code}`;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { url, qrSvg: qrSvg(url), expiresAt: new Date(expiresAt).toISOString() };
  });

  router.post('/bridge/pairing/approve', async (ctx) => {
    const { requestId } = await readBody(ctx, PairingDecisionBody);
    const device = await bridge.pairings.approve(requestId);
    ctx.body = { deviceId: device.id, name: device.name };
  });

  router.post('/bridge/pairing/refuse', async (ctx) => {
    const { requestId } = await readBody(ctx, PairingDecisionBody);
    bridge.pairings.refuse(requestId);
    ctx.body = { refused: requestId };
  });

  router.post('/bridge/devices/revoke', async (ctx) => {
    const { deviceId } = await readBody(ctx, DeviceRevokeBody);
    const device = await bridge.devices.revoke(deviceId);
    ctx.body = { revoked: device.id, name: device.name };
  });

  router.post('/bridge/agent-tokens', async (ctx) => {
    const { name, expires, takeOver } = await readBody(ctx, AgentTokenCreateBody);
    const made = await bridge.agentTokens.create(name, parseExpiry(expires ?? DEFAULT_EXPIRY), {
      known: knownAgent(bridge, name),
      takeOver,
    });
    // the token holds its name once the desk is about to get it (a half-made one holds none)
    await made.shown();
    const { token, record } = made;
    const base = bridge.remoteUrl() ?? `http://127.0.0.1:${bridge.config.remote?.port ?? 8778}`;
    ctx.set('Cache-Control', 'no-store');
    const row = devicesEvent(bridge).agentTokens.find((t) => t.id === record.id);
    ctx.body = { token, row, setup: tokenSetup(base, token, name) };
  });

  router.post('/bridge/agent-tokens/revoke', async (ctx) => {
    const { name } = await readBody(ctx, AgentTokenRevokeBody);
    ctx.body = { revoked: (await bridge.agentTokens.revoke(name)).map((r) => r.id) };
  });
};

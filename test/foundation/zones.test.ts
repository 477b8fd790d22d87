import Router from '@koa/router';
import type Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../bridge/http/app.js';
import { zoneRoutes, type ZoneRoute, type Zones } from '../../bridge/http/zones.js';
import { mountRoutes } from '../../bridge/routes.js';
import { http, startBridge } from '../helpers/bridge.js';

const PAGE_ORIGIN = 'http://localhost:3000';

/** What is wrong with how an app mounts its routes: a router outside the zones, or a route in two zones. */
function zoneProblems(app: Koa, zones: Zones): string[] {
  const problems: string[] = [];
  const zoneRouters = new Set<unknown>(Object.values(zones));
  for (const middleware of app.middleware) {
    const router = (middleware as { router?: unknown }).router;
    if (router !== undefined && !zoneRouters.has(router)) problems.push('a router outside the trust zones is mounted');
  }
  const owners = new Map<string, Set<string>>();
  for (const { zone, method, path } of zoneRoutes(zones)) {
    const key = `${method} ${path}`;
    owners.set(key, (owners.get(key) ?? new Set()).add(zone));
  }
  for (const [route, zonesOfRoute] of owners) {
    if (zonesOfRoute.size !== 1) problems.push(`${route} is in ${[...zonesOfRoute].join(' and ')}`);
  }
  return problems;
}

/** A concrete URL path for a route path (`/ui/{*path}` → `/ui/x`). */
function concrete(path: string): string {
  return path.replace(/\{\/?\*\w+\}/g, '/x').replace(/:\w+/g, 'x');
}

function routesOf(zones: Zones, zone: ZoneRoute['zone']): ZoneRoute[] {
  // HEAD comes with every GET; the GET is the route
  return zoneRoutes(zones).filter((r) => r.zone === zone && r.method !== 'HEAD');
}

describe('trust zones are routers', () => {
  it('every route of the bridge belongs to exactly one zone, and the app mounts nothing else', async () => {
    const bridge = await startBridge();
    const zones = mountRoutes(bridge.context);
    expect(zoneProblems(createApp(bridge.context, zones), zones)).toEqual([]);
    for (const zone of ['open', 'page', 'window', 'desk', 'mcp'] as const) {
      expect(routesOf(zones, zone).length, zone).toBeGreaterThan(0);
    }
    // the walk lists routes only, each with its zone, method and path (a stray entry would hide a route)
    for (const route of zoneRoutes(zones)) {
      expect(route).toEqual({
        zone: expect.stringMatching(/^(open|page|window|desk|mcp)$/),
        method: expect.stringMatching(/^[A-Z-]+$/),
        path: expect.stringMatching(/^\//),
      });
    }
  });

  it('the zone check fails for a route in two zones or a router mounted beside them', async () => {
    const bridge = await startBridge();
    const twice = mountRoutes(bridge.context);
    twice.open.get('/bridge/sessions', () => undefined);
    expect(zoneProblems(createApp(bridge.context, twice), twice)).toContain(
      'GET /bridge/sessions is in open and window',
    );
    const zones = mountRoutes(bridge.context);
    const app = createApp(bridge.context, zones);
    const stray = new Router();
    stray.get('/bridge/backdoor', () => undefined);
    app.use(stray.routes());
    expect(zoneProblems(app, zones)).toEqual(['a router outside the trust zones is mounted']);
  });

  it('every window and desk route refuses a request without the token, and a page origin even with it', async () => {
    const bridge = await startBridge();
    const zones = mountRoutes(bridge.context);
    const routes = [...routesOf(zones, 'window'), ...routesOf(zones, 'desk')];
    expect(routes.map((r) => r.path)).toEqual(expect.arrayContaining(['/bridge/push', '/bridge/answer']));
    for (const { method, path } of routes) {
      const what = `${method} ${path}`;
      const body = method === 'GET' ? undefined : '{}';
      const bare = await http(`${bridge.url}${concrete(path)}`, { method, body });
      expect(bare.status, what).toBe(401);
      expect(bare.body, what).toMatchObject({ error: expect.stringContaining('missing token') });
      const fromPage = await http(`${bridge.url}/aiti${concrete(path)}`, {
        method,
        body,
        token: bridge.token,
        headers: { origin: PAGE_ORIGIN },
      });
      expect(fromPage.status, what).toBe(403);
    }
    // the window's stream is reached by role, and guarded like the rest
    expect((await http(`${bridge.url}/bridge/sse?role=ai`)).status).toBe(401);
  });

  it('on the remote listener every route but the open zone is a 401 without a credential, even with the human token', async () => {
    const bridge = await startBridge({ remote: { host: '127.0.0.1', port: 0 } });
    const zones = mountRoutes(bridge.context, 'remote');
    // router.all('/mcp/mcp') lists every method; fetch sends the ones a client would
    const guarded = (['window', 'desk', 'mcp'] as const)
      .flatMap((zone) => routesOf(zones, zone))
      .filter((r) => ['GET', 'POST', 'DELETE'].includes(r.method));
    expect(guarded.length).toBeGreaterThan(10);
    expect(routesOf(zones, 'page')).toEqual([]);
    for (const { method, path } of guarded) {
      const what = `${method} ${path}`;
      const body = method === 'GET' ? undefined : '{}';
      for (const token of [undefined, bridge.token]) {
        const res = await http(`${bridge.remote?.url}${concrete(path)}`, { method, body, ...(token ? { token } : {}) });
        expect(res.status, what).toBe(401);
        expect(res.headers.get('www-authenticate'), what).toBe('Bearer realm="aiti-bridge"');
      }
    }
  });

  it('every page route answers any origin with open CORS (and checks the secret itself)', async () => {
    const bridge = await startBridge();
    for (const { method, path } of routesOf(mountRoutes(bridge.context), 'page')) {
      const what = `${method} ${path}`;
      const res = await fetch(`${bridge.url}${concrete(path)}`, {
        method,
        headers: { origin: PAGE_ORIGIN },
        ...(method === 'POST' ? { body: '{}' } : {}),
      });
      await res.body?.cancel();
      expect(res.headers.get('access-control-allow-origin'), what).toBe('*');
      if (method === 'OPTIONS') expect(res.status, what).toBe(204);
      else expect(res.status, what).toBe(400);
    }
    const wrongSecret = await http(`${bridge.url}/bridge/result`, {
      body: { pageId: 'p1', requestId: 'r1', ok: true, result: null, secret: 'nope' },
      headers: { origin: PAGE_ORIGIN },
    });
    expect(wrongSecret.status).toBeGreaterThanOrEqual(400);
    expect(wrongSecret.status).toBeLessThan(500);
  });

  it('the MCP zone refuses browser origins; the open zone needs nothing; an unknown role is a 400', async () => {
    const bridge = await startBridge();
    const zones = mountRoutes(bridge.context);
    for (const { method, path } of routesOf(zones, 'mcp').filter((r) => r.method === 'POST')) {
      const res = await http(`${bridge.url}${concrete(path)}`, {
        method,
        body: '{}',
        headers: { origin: PAGE_ORIGIN },
      });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect((await http(`${bridge.url}/bridge/health`)).status).toBe(200);
    const noRole = await http(`${bridge.url}/bridge/sse?role=robot`);
    expect(noRole).toMatchObject({
      status: 400,
      body: { field: 'role', error: 'query "role" must be "page" or "ai"' },
    });
  });
});

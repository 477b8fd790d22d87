import { readFileSync } from 'node:fs';
import Router from '@koa/router';
import { describe, expect, it } from 'vitest';
import { STREAM_PATHS, zoneRoutes, type ZoneName, type Zones } from '../../bridge/http/zones.js';
import { mountRoutes } from '../../bridge/routes.js';
import { startBridge } from '../helpers/bridge.js';

// docs/HTTP.md's tables, checked against the routers as mounted (the walk of test/foundation/zones.test.ts):
// a route without a row, a row that is no route, or a row under another zone's heading fails.

const DOC = new URL('../../docs/HTTP.md', import.meta.url);

/** Rows that are no Koa route, each with why. */
const NOT_KOA = new Map([
  [
    'page GET /bridge/result-socket',
    'a WebSocket upgrade, taken on the server\'s "upgrade" event before Koa (bridge/pages/result-socket-routes.ts)',
  ],
]);

/** Each `## ` heading of docs/HTTP.md that holds a table, and the listener and zone its rows belong to. */
const SECTIONS: Record<string, { listener: 'local' | 'remote'; zone: ZoneName }> = {
  'Page zone': { listener: 'local', zone: 'page' },
  'Window zone': { listener: 'local', zone: 'window' },
  'Desk zone': { listener: 'local', zone: 'desk' },
  'Open zone': { listener: 'local', zone: 'open' },
  'MCP zone': { listener: 'local', zone: 'mcp' },
  'Remote listener': { listener: 'remote', zone: 'open' },
};

/** `listener zone METHOD /path` for every route named in a table's first column. */
function documentedRoutes(markdown: string): string[] {
  const routes: string[] = [];
  let section: string | undefined;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('## ')) section = line.slice(3).trim();
    if (!line.startsWith('| `')) continue;
    const where = section === undefined ? undefined : SECTIONS[section];
    if (!where) throw new Error(`a route table under "${section ?? 'no heading'}", which names no zone: ${line}`);
    const firstCell = line.split(/(?<!\\)\|/)[1] ?? '';
    for (const [, method, bare, query] of firstCell.matchAll(/`([A-Z]+) (\/[^`?\s]*)(\?[^`\s]*)?[^`]*`/g)) {
      let path = (bare ?? '').replace(/^\/aiti(?=\/)/, '');
      // the stream's role picks its zone and path before routing (STREAM_PATHS)
      const role = /role=(page|ai)\b/.exec(query ?? '')?.[1];
      if (path === '/bridge/sse' && (role === 'page' || role === 'ai')) path = STREAM_PATHS[role];
      routes.push(`${where.listener} ${where.zone} ${method} ${path}`);
    }
  }
  return routes;
}

/** The methods @koa/router gives a route mounted with `all`: such a route is one row, `ALL /path`. */
const ALL_METHODS = (() => {
  const router = new Router();
  router.all('/x', () => undefined);
  return router.stack.flatMap((layer) => layer.methods);
})();

/** `zone METHOD /path` for every route a listener mounts (HEAD comes with GET; preflights with the page routes). */
function mountedRoutes(zones: Zones): string[] {
  const byRoute = new Map<string, Set<string>>();
  for (const { zone, method, path } of zoneRoutes(zones)) {
    if (method === 'HEAD' || (zone === 'page' && method === 'OPTIONS')) continue;
    const key = `${zone} ${path}`;
    byRoute.set(key, (byRoute.get(key) ?? new Set()).add(method));
  }
  return [...byRoute].flatMap(([key, methods]) => {
    const [zone, path] = key.split(' ');
    const all = ALL_METHODS.every((m) => m === 'HEAD' || methods.has(m));
    return all ? [`${zone} ALL ${path}`] : [...methods].map((m) => `${zone} ${m} ${path}`);
  });
}

/** What docs/HTTP.md gets wrong about the mounted routes of both listeners. */
function surfaceProblems(markdown: string, local: Zones, remote: Zones): string[] {
  const localRoutes = mountedRoutes(local).map((r) => `local ${r}`);
  const localSet = new Set(mountedRoutes(local));
  // the remote listener's own rows: what it mounts beyond the local listener's routes
  const remoteOnly = mountedRoutes(remote)
    .filter((r) => !localSet.has(r))
    .map((r) => `remote ${r}`);
  const mounted = new Set([...localRoutes, ...remoteOnly]);
  const documented = documentedRoutes(markdown);
  const problems: string[] = [];
  for (const route of mounted) {
    if (!documented.includes(route)) problems.push(`${route} is mounted but has no row in docs/HTTP.md`);
  }
  for (const route of documented) {
    const notKoa = NOT_KOA.has(route.replace(/^local /, ''));
    if (!mounted.has(route) && !notKoa) problems.push(`${route} has a row in docs/HTTP.md but is not mounted there`);
    if (documented.indexOf(route) !== documented.lastIndexOf(route)) problems.push(`${route} has two rows`);
  }
  for (const route of NOT_KOA.keys()) {
    if (!documented.includes(`local ${route}`)) problems.push(`${route} (${NOT_KOA.get(route)}) has no row`);
  }
  return [...new Set(problems)];
}

describe('docs/HTTP.md lists the HTTP surface', () => {
  it('has a row for every mounted route, under its zone, and no row for anything else', async () => {
    const bridge = await startBridge();
    const markdown = readFileSync(DOC, 'utf8');
    const problems = surfaceProblems(markdown, mountRoutes(bridge.context), mountRoutes(bridge.context, 'remote'));
    expect(problems).toEqual([]);
    // the walk saw every zone, and the rows cover the remote listener's own routes too
    expect(documentedRoutes(markdown)).toEqual(
      expect.arrayContaining(['local mcp ALL /mcp/mcp', 'remote open POST /bridge/pair/start']),
    );
  });

  it('fails for a route without a row, a row without a route, and a row under another zone', async () => {
    const bridge = await startBridge();
    const markdown = readFileSync(DOC, 'utf8');
    const remote = mountRoutes(bridge.context, 'remote');

    const added = mountRoutes(bridge.context);
    added.window.get('/bridge/undocumented', () => undefined);
    expect(surfaceProblems(markdown, added, remote)).toEqual([
      'local window GET /bridge/undocumented is mounted but has no row in docs/HTTP.md',
    ]);

    const local = mountRoutes(bridge.context);
    const withoutRow = markdown.replace(/^\| `GET \/bridge\/inbox-status` .*\n/m, '');
    expect(withoutRow).not.toBe(markdown);
    expect(surfaceProblems(withoutRow, local, remote)).toEqual([
      'local window GET /bridge/inbox-status is mounted but has no row in docs/HTTP.md',
    ]);

    const ghost = markdown.replace('| `GET /bridge/whoami` |', '| `GET /bridge/whoami`, `POST /bridge/ghost` |');
    expect(surfaceProblems(ghost, local, remote)).toEqual([
      'local window POST /bridge/ghost has a row in docs/HTTP.md but is not mounted there',
    ]);

    const moved = markdown
      .replace(/^\| `GET \/bridge\/whoami` .*\n/m, '')
      .replace('| `GET /bridge/health` |', '| `GET /bridge/whoami`, `GET /bridge/health` |');
    expect(surfaceProblems(moved, local, remote)).toEqual([
      'local window GET /bridge/whoami is mounted but has no row in docs/HTTP.md',
      'local open GET /bridge/whoami has a row in docs/HTTP.md but is not mounted there',
    ]);
  });
});

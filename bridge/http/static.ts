import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Router } from '@koa/router';
import { HttpError } from './errors.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** The window's CSP: its own scripts and the bridge's API only; never framed by another site. */
export const WINDOW_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The built assets: `dist/` beside the sources, or the folder above a built bridge. */
export function findAssetsDir(): string | undefined {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const candidates = [join(here, '..', '..', 'dist'), join(here, '..', '..')];
  return candidates.find(
    (dir) => existsSync(join(dir, 'page', 'page.js')) || existsSync(join(dir, 'renderer', 'index.html')),
  );
}

async function serveFile(root: string, rel: string): Promise<{ body: Buffer; type: string } | undefined> {
  const file = normalize(join(root, rel));
  if (!file.startsWith(normalize(root) + sep)) throw new HttpError(400, 'bad path');
  try {
    return { body: await readFile(file), type: TYPES[extname(file)] ?? 'application/octet-stream' };
  } catch {
    return undefined;
  }
}

/**
 * GET /page.js (the page agent) and GET /ui/* (the human window), both also under /aiti. `pageScript: false` leaves
 * the page agent out (the remote listener without --remote-pages).
 */
export function staticRoutes(
  router: Router,
  assetsDir: string | undefined,
  { pageScript = true }: { pageScript?: boolean } = {},
): void {
  const missing = (what: string) =>
    new HttpError(503, `${what} is not built; run "npm run build" in the aiti-bridge checkout`);

  if (pageScript)
    router.get('/page.js', async (ctx) => {
      const file = assetsDir && (await serveFile(join(assetsDir, 'page'), 'page.js'));
      if (!file) throw missing('the page agent');
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.set('Cache-Control', 'no-cache');
      // one script a page load: the connection ends with it, so a client that never reads it holds no socket here
      // (its bytes wait in the kernel, not in the bridge, and the stalled-write rule cannot see them there)
      ctx.set('Connection', 'close');
      ctx.type = file.type;
      ctx.body = file.body;
    });

  router.get('/ui', async (ctx, next) => {
    // the router matches `/ui/` here too (trailing slashes are not strict): let the file route serve it
    if (ctx.path.endsWith('/')) return next();
    ctx.redirect(ctx.originalUrl.startsWith('/aiti') ? '/aiti/ui/' : '/ui/');
  });

  router.get('/ui/{*path}', async (ctx) => {
    const rel = typeof ctx.params.path === 'string' && ctx.params.path ? ctx.params.path : 'index.html';
    const root = assetsDir && join(assetsDir, 'renderer');
    const file =
      root && ((await serveFile(root, rel)) ?? (extname(rel) ? undefined : await serveFile(root, 'index.html')));
    if (!file) {
      if (!root || !existsSync(join(root, 'index.html'))) throw missing('the window');
      throw new HttpError(404, `no file "${rel}" in the window build`);
    }
    ctx.set('Content-Security-Policy', WINDOW_CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', rel === 'index.html' ? 'no-cache' : 'public, max-age=31536000, immutable');
    ctx.type = file.type;
    ctx.body = file.body;
  });
}

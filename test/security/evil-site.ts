import type { IncomingMessage } from 'node:http';
import { launchBrowser, type TestBrowser } from '../helpers/browser.js';
import { serveFixture, type FixtureServer, type Route } from '../fixtures/server.js';

/**
 * The attacker of test/security: a website the developer has open in the same browser. It is a second local
 * server, reached as `http://evil.test:PORT` (Chromium maps the name to 127.0.0.1), so the bridge sees a real
 * non-loopback Origin, as it would for any site on the internet.
 */
export const EVIL_HOST = 'evil.test';

export interface EvilSite extends FixtureServer {
  /** http://evil.test:PORT */
  evilUrl: string;
  /** every request that reached the site, "METHOD /path?query" */
  requests: string[];
}

export async function serveEvil(routes: Record<string, Route>): Promise<EvilSite> {
  const requests: string[] = [];
  const recorded: Record<string, Route> = {};
  for (const [path, route] of Object.entries(routes)) {
    recorded[path] =
      typeof route === 'string'
        ? route
        : (req, res) => {
            requests.push(describe(req));
            return route(req, res);
          };
  }
  const site = await serveFixture(recorded);
  const port = new URL(site.url).port;
  return { ...site, evilUrl: `http://${EVIL_HOST}:${port}`, requests };
}

function describe(req: IncomingMessage): string {
  return `${req.method ?? 'GET'} ${req.url ?? '/'}`;
}

/** A real headless Chromium that resolves evil.test to loopback. */
export function launchBrowserWithEvilSite(): Promise<TestBrowser> {
  return launchBrowser({ args: [`--host-resolver-rules=MAP ${EVIL_HOST} 127.0.0.1`] });
}

import { execFileSync } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page as BrowserPage } from 'playwright-core';
import type { Bridge } from '../../bridge/bridge.js';
import type { Page } from '../../bridge/pages/registry.js';
import type { Json } from '../../bridge/protocol/index.js';
import { waitFor } from '../helpers/wait.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds dist/page/page.js when it is missing or older than its sources (bridge/page-agent, bridge/protocol). */
export function ensurePageAgentBuilt(): void {
  const out = join(root, 'dist', 'page', 'page.js');
  const sources = Math.max(
    newestSource(join(root, 'bridge', 'page-agent')),
    newestSource(join(root, 'bridge', 'protocol')),
  );
  if (existsSync(out) && statSync(out).mtimeMs >= sources) return;
  execFileSync(process.execPath, [join(root, 'scripts', 'build.js'), 'page'], { cwd: root, stdio: 'inherit' });
}

/** The script tag a page under development adds. */
export function agentTag(bridge: Bridge): string {
  return `<script src="${bridge.url}/aiti/page.js"></script>`;
}

/** Waits until a connected page at `url` (prefix) shows up on the bridge. */
export async function connectedPage(bridge: Bridge, url: string, timeoutMs = 10_000): Promise<Page> {
  let found: Page | undefined;
  await waitFor(
    () => {
      // the main frame's own stream, opened by the document at that url (not an older one still closing)
      found = bridge.context.pages.all().find((p) => {
        const main = p.frames.get('main');
        return Boolean(main?.url.startsWith(url) && main.stream?.isOpen);
      });
      return Boolean(found);
    },
    timeoutMs,
    `a page at ${url} connected to the bridge`,
  );
  if (!found) throw new Error('unreachable');
  return found;
}

/** Opens `url` in the browser tab and returns the bridge's page for it. */
export async function openPage(bridge: Bridge, tab: BrowserPage, url: string): Promise<Page> {
  await tab.goto(url);
  return connectedPage(bridge, url);
}

/** Sends one page command through the bridge (the path every MCP page tool takes). */
export function exec(bridge: Bridge, page: Page, cmd: string, args: Json = {}, frameId?: string): Promise<Json> {
  return bridge.context.requests.send(page, cmd, args, frameId ? { frameId } : {});
}

/** The ref on the first outline line that contains `pattern` (fails naming the outline when there is none). */
export function refOf(outline: string, pattern: string): string {
  const line = outline.split('\n').find((l) => l.includes(pattern));
  const ref = line ? /\b(e\d+)\b/.exec(line)?.[1] : undefined;
  if (!ref) throw new Error(`no ref for ${pattern} in:\n${outline}`);
  return ref;
}

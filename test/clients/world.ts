import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page as Tab } from 'playwright-core';
import { createBridge, type Bridge } from '../../bridge/bridge.js';
import type { AskView } from '../../bridge/protocol/index.js';
import { CHROMIUM_ARGS, chromiumPath } from '../helpers/chromium.js';
import { SseClient } from '../helpers/sse.js';
import { waitFor } from '../helpers/wait.js';
import { connectedPage, ensurePageAgentBuilt } from '../page/harness.js';

/** POST JSON to a window route with the human's token (no vitest here: the bench runs this world too). */
async function post(bridge: Bridge, path: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(`${bridge.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bridge.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

/** A small to-do app with a profile form: what the scripted model works on. */
const APP = (bridgeUrl: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Tasks</title>
<script src="${bridgeUrl}/aiti/page.js"></script></head><body><main>
<h1>Tasks</h1>
<form id="new-task"><label>New task <input name="task"></label><button>Add task</button></form>
<ul aria-label="Task list"><li>Water the plants</li></ul>
<button id="stock" type="button">Check stock</button>
<form id="profile"><h2>Profile</h2>
<label>Full name <input name="name"></label>
<label>Email <input name="email" type="email"></label>
<label>Role <select name="role"><option>Viewer</option><option>Editor</option><option>Admin</option></select></label>
<label><input name="newsletter" type="checkbox"> Newsletter</label>
<button>Save profile</button></form>
<p id="saved"></p>
</main><script>
document.getElementById('new-task').addEventListener('submit', (e) => {
  e.preventDefault();
  const input = e.target.elements.task;
  const li = document.createElement('li');
  li.textContent = input.value;
  document.querySelector('ul').append(li);
  console.info('task added: ' + input.value);
  input.value = '';
});
document.getElementById('stock').addEventListener('click', () => {
  console.warn('stock is low: 2 left');
  console.error('stock service answered 503');
});
document.getElementById('profile').addEventListener('submit', (e) => {
  e.preventDefault();
  const f = e.target.elements;
  document.getElementById('saved').textContent = 'Saved ' + f.name.value + ' as ' + f.role.value;
});
</script></body></html>`;

/** The human at the window: pushes and answers over the window's HTTP API, as the window does. */
export interface Human {
  /** POST /bridge/push to one agent; resolves once the bridge acknowledged it (on disk) */
  push(agentId: string, text: string): Promise<void>;
  /**
   * Answers the next ask of `agentId` with yes and `note`: as soon as its card shows, or not before `notBefore`
   * settles (a human who answers late). Resolves with the ask and the window's HTTP status.
   */
  answer(
    agentId: string,
    note: string,
    notBefore?: Promise<unknown>,
  ): Promise<{ ask: AskView; status: number; shownAt: number }>;
}

export interface World {
  bridge: Bridge;
  human: Human;
  /** opens the app in a new tab; resolves with its pageId once the page agent connected */
  openApp(): Promise<{ pageId: string; tab: Tab }>;
  close(): Promise<void>;
}

/**
 * One world per test file: a real bridge on port 0 with its own data dir, the app served on loopback, one
 * headless Chromium, and the window's event stream for the human. Each run opens its own tab (its own page).
 */
export async function startWorld(): Promise<World> {
  ensurePageAgentBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'aiti-clients-'));
  const bridge = await createBridge({ port: 0, dataDir });
  const site: Server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(APP(bridge.url));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const browser: Browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const window = await SseClient.open(`${bridge.url}/bridge/sse?role=ai&token=${encodeURIComponent(bridge.token)}`);
  await window.next('state');
  let tabs = 0;
  const taken = new Set<string>();

  const human: Human = {
    async push(agentId, text) {
      const res = await post(bridge, '/bridge/push', { to: agentId, text });
      if (res.status !== 200) throw new Error(`push refused: ${res.status} ${res.text}`);
    },
    async answer(agentId, note, notBefore) {
      let ask: AskView | undefined;
      await waitFor(
        () => {
          ask = window.events
            .filter((e) => e.event === 'ask')
            .map((e) => e.data as AskView)
            .find((a) => a.agentId === agentId && !taken.has(a.askId));
          return Boolean(ask);
        },
        60_000,
        `an ask of ${agentId} on the window`,
      );
      if (!ask) throw new Error('unreachable');
      taken.add(ask.askId);
      const shownAt = Date.now();
      // a human who answers late: after whatever the scenario waits for
      await notBefore;
      const res = await post(bridge, '/bridge/answer', { askId: ask.askId, action: 'answer', value: true, note });
      return { ask, status: res.status, shownAt };
    },
  };

  return {
    bridge,
    human,
    async openApp() {
      const tab = await browser.newPage();
      const url = `${siteUrl}/app-${++tabs}`;
      await tab.goto(url);
      const page = await connectedPage(bridge, url, 20_000);
      return { pageId: page.pageId, tab };
    },
    async close() {
      window.close();
      await browser.close();
      await new Promise<void>((resolve) => {
        site.closeAllConnections();
        site.close(() => resolve());
      });
      await bridge.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

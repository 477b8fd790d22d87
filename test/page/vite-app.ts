import react from '@vitejs/plugin-react';
import { createServer, type Plugin } from 'vite';
import { aitiBridge } from '../../bridge/vite-plugin.js';
import type { Page as Tab } from 'playwright-core';
import type { Bridge } from '../../bridge/bridge.js';
import type { BridgeConfig } from '../../bridge/config.js';
import type { Page } from '../../bridge/pages/registry.js';
import { onCleanup, startBridge, tempDir } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { buildReactFixture, REACT_APP } from '../helpers/react-build.js';
import { connectedPage } from './harness.js';

/** The app's small API: POST /api/profile answers {saved: true}. */
const api: Plugin = {
  name: 'fixture-api',
  configureServer(server) {
    server.middlewares.use('/api/profile', (req, res) => {
      let size = 0;
      req.on('data', (chunk: Buffer) => (size += chunk.length));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ saved: true, size }));
      });
    });
  },
};

/**
 * The React 19 fixture app served by a real Vite dev server with @vitejs/plugin-react and @aiti-ai/aiti-bridge/vite (which
 * injects the page agent and adds data-source attributes). Closed after the test.
 */
export async function startReactApp(
  bridgeUrl: string,
  options: { sourceAttributes?: boolean } = {},
): Promise<{ url: string; root: string }> {
  const server = await createServer({
    root: REACT_APP,
    configFile: false,
    logLevel: 'silent',
    cacheDir: tempDir('aiti-vite-cache-'),
    plugins: [react(), aitiBridge({ bridgeUrl, ...options }), api],
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false, watch: null },
    optimizeDeps: { include: ['react', 'react-dom/client', 'react/jsx-dev-runtime'] },
  });
  await server.listen();
  onCleanup(() => server.close());
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('the Vite dev server did not report its URL');
  return { url, root: REACT_APP };
}

/**
 * The same app as a production build (Vite's JS API, into a temp dir), with the agent's script tag added the way
 * a page without the plugin would have it. Returns the directory to serve.
 */
export async function buildReactApp(bridgeUrl: string): Promise<string> {
  const outDir = tempDir('aiti-react-build-');
  await buildReactFixture(bridgeUrl, outDir, tempDir('aiti-vite-cache-'));
  return outDir;
}

/** A bridge, the React fixture on a Vite dev server, and a Chromium tab on it whose page agent is connected. */
export async function openReactApp(
  config: Partial<BridgeConfig> = {},
): Promise<{ bridge: Bridge; app: { url: string; root: string }; tab: Tab; page: Page }> {
  const bridge = await startBridge(config);
  const app = await startReactApp(bridge.url);
  const tab = await (await launchBrowser()).newPage();
  await tab.goto(app.url);
  const page = await connectedPage(bridge, app.url);
  return { bridge, app, tab, page };
}

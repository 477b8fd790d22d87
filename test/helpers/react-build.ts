import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';

/** The React fixture of the test suite (test/fixtures/react-app). */
export const REACT_APP = fileURLToPath(new URL('../fixtures/react-app', import.meta.url));

/**
 * The React fixture as a production build (Vite's JS API) into `outDir`, with the agent's script tag added the way
 * a page without the plugin would have it. No vitest here: the benchmarks build it too.
 */
export async function buildReactFixture(bridgeUrl: string, outDir: string, cacheDir: string): Promise<void> {
  const tag: Plugin = {
    name: 'agent-tag',
    transformIndexHtml: () => [
      { tag: 'script', attrs: { src: `${bridgeUrl}/aiti/page.js` }, injectTo: 'head-prepend' },
    ],
  };
  await build({
    root: REACT_APP,
    configFile: false,
    logLevel: 'silent',
    cacheDir,
    plugins: [react(), tag],
    build: { outDir, emptyOutDir: true },
  });
}

import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** The human window. `base: './'` lets the same build load in Electron and under the bridge's /aiti/ui/. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // no inline scripts and no module preload polyfill: the window's CSP is script-src 'self'
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: true,
    target: 'es2022',
    // one local bundle (React + zod), loaded from loopback: no point splitting it
    chunkSizeWarningLimit: 1024,
  },
});

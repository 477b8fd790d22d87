import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import vue from '@vitejs/plugin-vue';
import { describe, expect, it } from 'vitest';
import { createServer, type Plugin, type PluginOption, type ViteDevServer } from 'vite';
import { createSSRApp, type Component } from 'vue';
import { renderToString } from 'vue/server-renderer';
import { aitiBridge } from '../../bridge/vite-plugin.js';
import { onCleanup, tempDir } from '../helpers/bridge.js';

type Transform = (code: string, id: string) => Promise<{ code: string } | null>;

function hooks(plugin: Plugin) {
  const configResolved = plugin.configResolved as (config: { root: string }) => void;
  configResolved({ root: '/work/app' });
  return {
    transform: (plugin.transform as unknown as Transform).bind({}),
    html: plugin.transformIndexHtml as () => Array<{ tag: string; attrs: Record<string, string>; injectTo: string }>,
  };
}

describe('@aiti-ai/aiti-bridge/vite', () => {
  it('runs in dev only and injects the page agent script with the project root', () => {
    const plugin = aitiBridge({ bridgeUrl: 'http://127.0.0.1:9999/' });
    expect(plugin.apply).toBe('serve');
    const [tag] = hooks(plugin).html();
    expect(tag).toEqual({
      tag: 'script',
      attrs: { src: 'http://127.0.0.1:9999/aiti/page.js', 'data-aiti-root': '/work/app' },
      injectTo: 'head-prepend',
    });
  });

  it('marks intrinsic JSX elements with data-source file:line:col, leaving components and lines alone', async () => {
    const { transform } = hooks(aitiBridge());
    const code = [
      'export function A() {',
      '  const é = 1 < 2;',
      '  return <main className="x">',
      '    <Card title="<div>" />',
      '    <button data-source="kept:1" onClick={() => {}}>go</button>',
      '  </main>;',
      '}',
    ].join('\n');
    const out = await transform(code, '/work/app/src/A.tsx?v=1');
    expect(out?.code.split('\n')).toEqual([
      'export function A() {',
      '  const é = 1 < 2;',
      '  return <main data-source="src/A.tsx:3:10" className="x">',
      '    <Card title="<div>" />',
      '    <button data-source="kept:1" onClick={() => {}}>go</button>',
      '  </main>;',
      '}',
    ]);
  });

  it('skips dependencies, other files, and code that does not parse', async () => {
    const { transform } = hooks(aitiBridge());
    expect(await transform('const a = <div/>;', '/work/app/node_modules/x/a.jsx')).toBeNull();
    expect(await transform('const a = 1 < 2;', '/work/app/src/a.ts')).toBeNull();
    expect(await transform('const a = <div;', '/work/app/src/a.jsx')).toBeNull();
    expect(
      await hooks(aitiBridge({ sourceAttributes: false })).transform('const a = <div/>;', '/work/app/src/a.jsx'),
    ).toBeNull();
  });
});

/**
 * Issue 24, Low 6: a file named `a" onClick={() => …} x=".tsx` came out of the transform with `onClick` and `x`
 * attributes (Vue: `@click`): the plugin wrote the file name into the attribute as it was.
 */
describe('a hostile file name, through a real Vite dev server', () => {
  /** A project in a temp dir (node_modules linked in, so react and vue resolve) served by Vite with the plugins. */
  async function project(files: Record<string, string>, plugins: PluginOption[]): Promise<ViteDevServer> {
    const root = tempDir('aiti-vite-hostile-');
    symlinkSync(fileURLToPath(new URL('../../node_modules', import.meta.url)), join(root, 'node_modules'), 'dir');
    for (const [name, code] of Object.entries(files)) writeFileSync(join(root, name), code);
    const server = await createServer({
      root,
      configFile: false,
      logLevel: 'silent',
      cacheDir: tempDir('aiti-vite-cache-'),
      plugins,
      server: { middlewareMode: true, hmr: false, watch: null },
      optimizeDeps: { noDiscovery: true },
    });
    onCleanup(() => server.close());
    return server;
  }

  it('JSX: the element gets data-source with the whole name, and no attribute of the name’s choosing', async () => {
    const name = 'a" onClick={() => globalThis.pwned = 1} x=".tsx';
    const server = await project({ [name]: 'export const A = () => <div>hi</div>;\n' }, [react(), aitiBridge()]);
    const url = '/' + name;
    const client = await server.transformRequest(url);
    expect(client?.code).toContain('data-source');
    // the name shows only inside strings; a prop of its own would be a key of the props object
    expect(client?.code).not.toMatch(/\bonClick:|\bx:/);
    const { A } = (await server.ssrLoadModule(url)) as { A: () => { props: Record<string, unknown> } };
    const { props } = A();
    expect(Object.keys(props).sort()).toEqual(['children', 'data-source']);
    expect(props['data-source']).toBe(`${name}:1:24`);
  });

  it('Vue: the element gets data-source with the whole name, and no @click of the name’s choosing', async () => {
    const name = 'a" @click="globalThis.pwned = 1" x=".vue';
    const server = await project({ [name]: '<template>\n  <div>hi</div>\n</template>\n' }, [aitiBridge(), vue()]);
    const url = '/' + name;
    const client = await server.transformRequest(url);
    expect(client?.code).not.toMatch(/\bonClick:/);
    const { default: component } = (await server.ssrLoadModule(url)) as { default: Component };
    const html = await renderToString(createSSRApp(component));
    expect(html).toBe(`<div data-source="${name.replace(/"/g, '&quot;')}:2:3">hi</div>`);
  });
});

import { describe, expect, it } from 'vitest';
import type { Plugin } from 'vite';
import { aitiBridge } from '../../bridge/vite-plugin.js';

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

// The page agent bundle (dist/page/page.js), built by scripts/build.js and by the test of its zod check.
import { build, formatMessages } from 'esbuild';
import { fileURLToPath } from 'node:url';

const zodLite = fileURLToPath(new URL('../bridge/page-agent/zod-lite.ts', import.meta.url));
export const PAGE_ENTRY = fileURLToPath(new URL('../bridge/page-agent/index.ts', import.meta.url));

/**
 * Bundles `entry` for the browser as one minified IIFE, `zod` mapped to bridge/page-agent/zod-lite.ts (zod-names.ts
 * picks the builders the bundle carries). A builder it does not carry (`z.tuple`) would be undefined at run time
 * and stop the page agent from loading, so the build fails naming it. Resolves to the bundle's bytes.
 */
export async function bundlePage(entry = PAGE_ENTRY) {
  try {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      format: 'iife',
      minify: true,
      target: 'es2020',
      platform: 'browser',
      legalComments: 'none',
      write: false,
      logLevel: 'silent',
      // esbuild sees `z.tuple` on the namespace import of zod-lite, and that it has no such export
      logOverride: { 'import-is-undefined': 'error' },
      plugins: [{ name: 'zod-lite', setup: (b) => b.onResolve({ filter: /^zod$/ }, () => ({ path: zodLite })) }],
    });
    if (result.warnings.length)
      for (const text of await formatMessages(result.warnings, { kind: 'warning' })) console.error(text);
    const [out] = result.outputFiles;
    return out.contents;
  } catch (error) {
    throw missingBuilders(error) ?? error;
  }
}

/** The error to show when the build failed on zod builders the bundle lacks, naming each and where it is used. */
function missingBuilders(error) {
  const errors = Array.isArray(error?.errors) ? error.errors : [];
  const missing = errors.filter((e) => e.id === 'import-is-undefined' && e.text.includes('zod-lite'));
  if (!missing.length) return undefined;
  const uses = missing.map((e) => {
    const name = /Import "([^"]+)"/.exec(e.text)?.[1] ?? '?';
    const at = e.location ? `${e.location.file}:${e.location.line}` : 'a file of the page bundle';
    return `z.${name} (${at})`;
  });
  return new Error(
    `the page agent's zod does not export ${uses.join(', ')}: add ${missing.length === 1 ? 'the builder' : 'each builder'} to bridge/page-agent/zod-names.ts, or the page agent fails to load`,
  );
}

import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;

/** Bundles `source` (a page-side module) the way scripts/build.js bundles the page agent; resolves to what happened. */
async function bundle(source: string): Promise<{ ok: boolean; stderr: string }> {
  const entry = join(mkdtempSync(join(tmpdir(), 'aiti-zod-')), 'entry.ts');
  writeFileSync(entry, source);
  const script = `import('./scripts/page-bundle.js').then((m) => m.bundlePage(${JSON.stringify(entry)})).then(
    () => process.exit(0),
    (error) => { console.error(error.message); process.exit(1); },
  );`;
  return run(process.execPath, ['--input-type=module', '-e', script], { cwd: root }).then(
    ({ stderr }) => ({ ok: true, stderr }),
    (error: { stderr: string }) => ({ ok: false, stderr: error.stderr }),
  );
}

describe("the page bundle's zod (bridge/page-agent/zod-names.ts)", () => {
  it('refuses to build a page schema that uses a builder the bundle does not carry, naming it and where', async () => {
    const result = await bundle("import * as z from 'zod';\nexport const pair = z.tuple([z.string(), z.number()]);\n");
    expect(result.ok).toBe(false);
    expect(result.stderr).toMatch(
      /does not export z\.tuple \(.*entry\.ts:2\): add the builder to bridge\/page-agent\/zod-names\.ts/,
    );
  });

  it('builds one that uses only the builders it carries', async () => {
    const result = await bundle(
      "import * as z from 'zod';\nexport const row = z.object({ id: z.string(), n: z.number() });\n",
    );
    expect(result).toEqual({ ok: true, stderr: '' });
  });
});

import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../../dist/bridge/', import.meta.url));

/**
 * Every module `aiti-bridge --stdio` loads: the static imports of the built CLI (dist/bridge/cli.js, which the bin
 * runs) and of the shim it imports for --stdio, followed through the built files. Packages are listed by name.
 */
function shimModules(): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    const name = relative(DIST, file);
    if (seen.has(name)) return;
    seen.add(name);
    const code = readFileSync(file, 'utf8');
    for (const [, specifier = ''] of code.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']/gm)) {
      if (specifier.startsWith('.')) visit(join(dirname(file), specifier));
      else seen.add(specifier);
    }
  };
  visit(join(DIST, 'cli.js'));
  visit(join(DIST, 'shim', 'stdio.js'));
  return [...seen].sort();
}

describe('the stdio shim', () => {
  it('loads only its own modules and Node built-ins: no server module, no MCP SDK, no zod, no Koa', () => {
    const modules = shimModules();
    expect(modules).toContain('shim/forwarder.js');
    const foreign = modules.filter(
      (m) =>
        !m.startsWith('node:') &&
        !/^(shim\/|protocol\/(headers|sse|closest)\.js$|(cli|config|locate|credentials|log|startup-error|version|prove-peer|token|private-files|process-alive|errors)\.js$)/.test(
          m,
        ),
    );
    expect(foreign).toEqual([]);
  });
});

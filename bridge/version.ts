import { readFileSync } from 'node:fs';

/** The name on npm (what users type: npx @aiti-ai/aiti-bridge). */
export const PACKAGE_NAME = '@aiti-ai/aiti-bridge';

/** The package version, read once from package.json next to the sources or the build. */
export function bridgeVersion(): string {
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === PACKAGE_NAME && pkg.version) return pkg.version;
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
}

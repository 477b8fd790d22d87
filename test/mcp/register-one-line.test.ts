import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/bridge.js';
import { cli } from '../helpers/cli.js';

/**
 * Issue 41, finding 8: registration re-indented a one-line mcp.json (VS Code writes its profiles' so). The entry is
 * now written on the file's one line, and the rest of the line is left as it was.
 */
describe('--register-shim and a config file written on one line', () => {
  it('adds the entry on that line and leaves every other byte as it was; --unregister gives the file back', async () => {
    const home = tempDir('aiti-home-');
    mkdirSync(join(home, '.cursor'));
    const file = join(home, '.cursor', 'mcp.json');
    const original = '{"mcpServers":{"other":{"command":"x","args":["--y"]}}}\n';
    writeFileSync(file, original);
    const added = await cli(['--register-shim'], { HOME: home });
    expect(added.code, added.stdout + added.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text.trimEnd().split('\n')).toHaveLength(1);
    expect(text.startsWith('{"mcpServers":{"other":{"command":"x","args":["--y"]},"aiti": {"command":')).toBe(true);
    expect(JSON.parse(text)).toMatchObject({ mcpServers: { other: { command: 'x' }, aiti: {} } });

    const removed = await cli(['--register-shim', '--unregister'], { HOME: home });
    expect(removed.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });
});

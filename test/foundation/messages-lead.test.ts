import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { onCleanup, startBridge, tempDir } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { BIN, cli } from '../helpers/cli.js';

/** Issue 41, finding 5: messages that lead — the likely cause first, the real errno, no stack for expected errors. */
describe('messages that lead', () => {
  it('a mistyped token in the window link: the stale or mistyped link first, the impostor after', async () => {
    const bridge = await startBridge();
    const page = await (await launchBrowser()).newPage();
    await page.goto(`${bridge.url}/aiti/ui/#token=mistyped`);
    const notice = page.getByRole('alert').filter({ hasText: "This link's token" });
    await notice.waitFor({ timeout: 15_000 });
    const text = (await notice.textContent()) ?? '';
    expect(text).toMatch(
      new RegExp(
        `^This link's token is not the one of the bridge on 127\\.0\\.0\\.1:${bridge.port}: most likely the link is older than the bridge`,
      ),
    );
    expect(text.indexOf('mistyped')).toBeLessThan(text.indexOf('another program may have taken the port'));
  });

  it('a fresh data dir on a read-only mount says EROFS, not ENOENT', () => {
    const mount = tempDir('aiti-ro-');
    // a mount namespace of our own (unshare -rm): a read-only tmpfs over the temp dir, gone with the process
    const run = spawnSync(
      'unshare',
      [
        '-rm',
        'sh',
        '-c',
        `mount -t tmpfs -o ro tmpfs "$1" && exec "$2" "$3" --port 0 --data-dir "$1/fresh"`,
        'sh',
        mount,
        process.execPath,
        BIN,
      ],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(run.stderr).toContain(
      `cannot create the data dir "${join(mount, 'fresh', 'aiti-bridge')}": EROFS: read-only file system`,
    );
    expect(run.stderr).not.toContain('ENOENT');
    expect(run.status).toBe(2);
  });

  it('a second problem is named as a problem, not read as one more argument', async () => {
    const bad = await cli(['call', 'page_snapshot', '{"pageid":1,"depth":"x"}'], {});
    expect(bad.stderr).toContain(
      'aiti-bridge call page_snapshot: unknown argument "pageid"; did you mean "pageId"? known: pageId, frameId, target, depth; and 1 more problem: field "depth": ',
    );
    expect(bad.stderr).not.toMatch(/\(and \d+ more\)/);
  });

  it('`call` with a mistyped tool says which was meant, with no stack trace', async () => {
    const bridge = await startBridge();
    const res = await cli(['call', 'page_snapshop'], { AITI_BRIDGE_URL: bridge.url });
    expect(res.stderr).toMatch(
      /^aiti-bridge call page_snapshop: unknown tool "page_snapshop" \(did you mean "page_snapshot"\?\); the tools are: [a-z_, ]+\n$/,
    );
    expect(res.code).toBe(1);
  });

  it('a mistyped flag gets "did you mean"', async () => {
    const res = await cli(['--prot', '9000'], {});
    expect(res.stderr).toBe('aiti-bridge: unknown option "--prot"; did you mean --port? (see aiti-bridge --help)\n');
    expect(res.code).toBe(2);
  });

  it('`--stdio --port N` goes to port N instead of ignoring it', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    // the shim as a client runs it, with --port on its command line (AITI_BRIDGE_URL names another place)
    const client = new Client({ name: 'some-client', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, '--stdio', '--port', String(port)],
        env: { PATH: process.env.PATH ?? '', AITI_BRIDGE_URL: 'http://127.0.0.1:9', AITI_LOG: 'warn' },
        stderr: 'pipe',
      }),
    );
    onCleanup(() => client.close());
    const result = await client.callTool({ name: 'bridge_status', arguments: {} });
    expect(JSON.stringify(result.content)).toContain(`The AITI bridge is not running at http://127.0.0.1:${port}`);
  });

  it('--register-shim names a config file once in its refusal', async () => {
    const home = tempDir('aiti-home-');
    mkdirSync(join(home, '.cursor'));
    const file = join(home, '.cursor', 'mcp.json');
    writeFileSync(file, '{ "mcpServers": { \n');
    const res = await cli(['--register-shim', '--dry-run'], { HOME: home });
    const line = res.stdout.split('\n').find((l) => l.startsWith('Cursor')) ?? '';
    expect(line).toContain(`${file}: not valid JSON`);
    expect(line.split(file)).toHaveLength(2);
  });
});

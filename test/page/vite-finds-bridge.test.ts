import { spawn } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { onCleanup, tempDir } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { cli, eachLine } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Issue 41, finding 1: with the bridge off port 8777, `aitiBridge()` as README shows it loaded the page agent from
 * 8777, and the only symptom was ERR_CONNECTION_REFUSED in the browser console. Now the plugin finds the bridge by
 * the CLI's rule (flag, AITI_BRIDGE_URL, the running bridge's record in its data dir, 8777) and says in the Vite
 * terminal where the page agent comes from, or why pages will not connect.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VITE = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');

/** A project as a newcomer makes it: index.html and README's vite.config.js, the package linked in as if installed. */
function project(): string {
  const dir = tempDir('aiti-vite-readme-');
  mkdirSync(join(dir, 'node_modules', '@aiti-ai'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules', 'vite'), join(dir, 'node_modules', 'vite'), 'dir');
  symlinkSync(ROOT, join(dir, 'node_modules', '@aiti-ai', 'aiti-bridge'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>app</title><h1>hello</h1>\n');
  // exactly README's walkthrough
  writeFileSync(
    join(dir, 'vite.config.js'),
    [
      "import { defineConfig } from 'vite';",
      "import { aitiBridge } from '@aiti-ai/aiti-bridge/vite';",
      '',
      'export default defineConfig({ plugins: [aitiBridge()] });',
      '',
    ].join('\n'),
  );
  return dir;
}

/** `npx vite` in the project: its terminal's lines as they come, and its URL once it prints it. */
function viteDev(dir: string, env: Record<string, string>) {
  const lines: string[] = [];
  const child = spawn(process.execPath, [VITE, '--host', '127.0.0.1', '--port', '0', '--clearScreen', 'false'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onCleanup(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const plain = (line: string) => lines.push(line.replace(/\x1b\[[0-9;]*m/g, ''));
  if (child.stdout) eachLine(child.stdout, plain);
  if (child.stderr) eachLine(child.stderr, plain);
  const terminal = () => lines.join('\n');
  const url = async () => {
    await waitFor(() => /Local:\s+http:\/\/\S+/.test(terminal()), 60_000, 'Vite to print its URL');
    return /Local:\s+(http:\/\/\S+)/.exec(terminal())?.[1] ?? '';
  };
  return { terminal, url };
}

/** A port nothing listens on (taken, then let go). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the Vite plugin as README shows it, with the bridge on a random port', () => {
  it('finds the running bridge by its record in the data dir, says so in the terminal, and the page connects', async () => {
    const home = tempDir('aiti-xdg-');
    // the bridge as README starts it, in its default data dir (XDG_CONFIG_HOME here), on a port nobody chose
    const own = spawn(process.execPath, [join(ROOT, 'bin', 'aiti-bridge.js'), '--port', '0'], {
      env: { PATH: process.env.PATH ?? '', XDG_CONFIG_HOME: home, AITI_LOG: 'warn' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    onCleanup(() => {
      if (own.exitCode === null) own.kill('SIGKILL');
    });
    let ownErr = '';
    own.stderr?.on('data', (c: Buffer) => (ownErr += c.toString()));
    await waitFor(() => /listening on http:\/\/\S+/.test(ownErr), 30_000, 'the bridge to start');
    const bridgeUrl = /listening on (http:\/\/\S+)/.exec(ownErr)?.[1] ?? '';

    const vite = viteDev(project(), { XDG_CONFIG_HOME: home });
    const appUrl = await vite.url();
    await waitFor(() => vite.terminal().includes('aiti-bridge:'), 5000, 'the plugin to say where the bridge is');
    expect(vite.terminal()).toContain(`aiti-bridge: pages load the page agent from ${bridgeUrl}`);
    expect(vite.terminal()).toContain(
      `found by the running bridge's record ${join(home, 'aiti-bridge', 'running.json')}`,
    );

    const tab = await (await launchBrowser()).newPage();
    await tab.goto(appUrl);
    // README's step 5: `aiti-bridge call` finds the same bridge by the same rule, lists the page, snapshots it
    let pageId = '';
    await waitFor(
      async () => {
        const status = await cli(['call', 'bridge_status'], { XDG_CONFIG_HOME: home });
        pageId =
          new RegExp(`^\\s+(\\S+) ${appUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`, 'm').exec(status.stdout)?.[1] ??
          '';
        return status.code === 0 && pageId !== '';
      },
      30_000,
      'the page to connect to the bridge on its random port',
    );
    const snapshot = await cli(['call', 'page_snapshot', JSON.stringify({ pageId })], { XDG_CONFIG_HOME: home });
    expect(snapshot.stderr).toBe('');
    expect(snapshot.stdout).toContain('hello');
  });

  it('says in the Vite terminal why pages will not connect when nothing answers, and where the URL came from', async () => {
    const port = await closedPort();
    const vite = viteDev(project(), {
      XDG_CONFIG_HOME: tempDir('aiti-xdg-'),
      AITI_BRIDGE_URL: `http://127.0.0.1:${port}`,
    });
    await vite.url();
    await waitFor(() => vite.terminal().includes('aiti-bridge:'), 5000, 'the plugin to warn');
    expect(vite.terminal()).toContain(
      `aiti-bridge: nothing answers at http://127.0.0.1:${port} (ECONNREFUSED); the URL came from AITI_BRIDGE_URL. Pages will not connect until the bridge runs there`,
    );
  });
});

// The CLI's note of a newer version on npm: the real CLI against a local stand-in registry (no network), and the
// once-a-day rule on an injected clock.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newer, updateNotice } from '../../bridge/update-notice.js';
import { bridgeVersion } from '../../bridge/version.js';
import { onCleanup, tempDir } from '../helpers/bridge.js';
import { BIN } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';

/** npm's dist-tags endpoint for this package, answering `latest`; counts the looks. */
async function standInRegistry(latest: string) {
  const looks: string[] = [];
  const server = createServer((req, res) => {
    looks.push(req.url ?? '');
    if (req.url !== '/-/package/@aiti-ai%2faiti-bridge/dist-tags') return void res.writeHead(404).end('{}');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ latest, next: '9.0.0-beta.1' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`, looks };
}

const DAY = 24 * 60 * 60 * 1000;

describe('the CLI says when a newer version is on npm', () => {
  it('the headless bridge says so on stderr, looking once a day; the next start tells from what it kept', async () => {
    const registry = await standInRegistry('99.0.0');
    const cache = tempDir('aiti-cache-');
    const start = async () => {
      const child = spawn(process.execPath, [BIN, '--port', '0', '--data-dir', tempDir()], {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: {
          ...process.env,
          AITI_UPDATE_CHECK: '',
          CI: '',
          XDG_CACHE_HOME: cache,
          npm_config_registry: registry.url,
        },
      });
      onCleanup(() => void child.kill('SIGKILL'));
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      await waitFor(() => stderr.includes('is out'), 15_000, `the note; stderr:\n${stderr}`);
      child.kill('SIGKILL');
      return stderr;
    };
    const first = await start();
    expect(first).toContain(
      `  aiti-bridge 99.0.0 is out (this is ${bridgeVersion()}): npm i -g @aiti-ai/aiti-bridge@latest, or npx @aiti-ai/aiti-bridge@latest (AITI_UPDATE_CHECK=0 turns this note off)\n`,
    );
    expect(registry.looks).toEqual(['/-/package/@aiti-ai%2faiti-bridge/dist-tags']);
    expect(JSON.parse(readFileSync(join(cache, 'aiti-bridge', 'update-check.json'), 'utf8'))).toMatchObject({
      latest: '99.0.0',
    });
    // within the day: the note again, from the file, without asking the registry
    expect(await start()).toContain('aiti-bridge 99.0.0 is out');
    expect(registry.looks).toHaveLength(1);
  });

  it('asks again after a day, says nothing when this is the latest, and AITI_UPDATE_CHECK=0 turns it off', async () => {
    const registry = await standInRegistry(bridgeVersion());
    const stampFile = join(tempDir(), 'update-check.json');
    const lines: string[] = [];
    let now = 1_000_000;
    const look = (env: NodeJS.ProcessEnv = {}) =>
      updateNotice({
        current: bridgeVersion(),
        env: { npm_config_registry: registry.url, ...env },
        stampFile,
        now: () => now,
        fetch,
        write: (line) => lines.push(line),
      });
    await look();
    await look();
    expect(registry.looks).toHaveLength(1);
    now += DAY;
    await look();
    expect(registry.looks).toHaveLength(2);
    expect(lines).toEqual([]);
    now += DAY;
    for (const off of [{ AITI_UPDATE_CHECK: '0' }, { NO_UPDATE_NOTIFIER: '1' }, { CI: 'true' }]) await look(off);
    expect(registry.looks).toHaveLength(2);
  });

  it('an unreachable registry costs nothing and is asked again the next day', async () => {
    const stampFile = join(tempDir(), 'update-check.json');
    const lines: string[] = [];
    await updateNotice({
      current: '0.1.0',
      env: { npm_config_registry: 'http://127.0.0.1:9/' },
      stampFile,
      now: () => 5,
      fetch,
      write: (line) => lines.push(line),
    });
    expect(lines).toEqual([]);
    expect(existsSync(stampFile)).toBe(true);
  });

  it('orders versions as npm does for x.y.z and pre-releases', () => {
    expect(newer('0.2.0', '0.1.9')).toBe(true);
    expect(newer('0.10.0', '0.9.0')).toBe(true);
    expect(newer('1.0.0', '1.0.0-beta.2')).toBe(true);
    expect(newer('1.0.0-beta.10', '1.0.0-beta.2')).toBe(true);
    expect(newer('1.0.0-beta.1', '1.0.0')).toBe(false);
    expect(newer('0.1.0', '0.1.0')).toBe(false);
  });
});

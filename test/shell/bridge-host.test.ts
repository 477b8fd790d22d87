import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { StartupError } from '../../bridge/bridge.js';
import { resolveConfig } from '../../bridge/config.js';
import { startBridgeHost } from '../../electron/bridge-host.js';
import { parseLaunchArgs } from '../../electron/launch-args.js';
import { http, onCleanup, startBridge, tempDir } from '../helpers/bridge.js';

/** The config the app builds from its launch arguments, exactly as the CLI would. */
const configFor = (argv: string[]) => resolveConfig(parseLaunchArgs(argv).bridge, {});

describe('the bridge inside the app', () => {
  it('runs in-process with the configuration the CLI would use', async () => {
    const dataDir = tempDir();
    let offered = false;
    const host = await startBridgeHost({
      config: configFor(['/opt/aiti', '--no-sandbox', '--port', '0', `--data-dir=${dataDir}`]),
      offerAttach: async () => (offered = true),
    });
    if (host.kind !== 'own') throw new Error('expected our own bridge');
    onCleanup(() => host.bridge.close());
    expect(offered).toBe(false);
    expect(host.bridge.context.appDir).toBe(`${dataDir}/aiti-bridge`);
    expect((await http(`${host.url}/bridge/health`)).body).toMatchObject({ ok: true });
    expect((await http(`${host.url}/bridge/sessions`, { token: host.token })).status).toBe(200);
  });

  it('offers to attach when another bridge holds the port, and uses its window and token', async () => {
    const other = await startBridge();
    const offers: string[] = [];
    const host = await startBridgeHost({
      config: configFor(['--port', String(other.port), '--data-dir', other.context.config.dataDir]),
      offerAttach: async (url, version) => {
        offers.push(`${url} ${version}`);
        return true;
      },
    });
    expect(offers).toEqual([`${other.url} ${other.context.version}`]);
    expect(host).toEqual({ kind: 'attached', url: other.url, token: other.token, version: other.context.version });
  });

  it('offers to attach to the bridge that holds its data dir, whatever port that one listens on', async () => {
    const other = await startBridge();
    const offers: string[] = [];
    const host = await startBridgeHost({
      config: configFor(['--port', '0', '--data-dir', other.context.config.dataDir]),
      offerAttach: async (url) => {
        offers.push(url);
        return true;
      },
    });
    expect(offers).toEqual([other.url]);
    expect(host).toMatchObject({ kind: 'attached', url: other.url, token: other.token });
  });

  it('says which bridge holds the port when the human declines to attach', async () => {
    const other = await startBridge();
    const declined = startBridgeHost({
      config: configFor(['--port', String(other.port), '--data-dir', other.context.config.dataDir]),
      offerAttach: async () => false,
    });
    await expect(declined).rejects.toThrow(StartupError);
    await expect(declined).rejects.toThrow(
      `another aiti-bridge ${other.context.version} already listens on ${other.url}; stop it, or start the app with another --port`,
    );
  });

  it('reports a port held by something that is not a bridge as the CLI does, without offering to attach', async () => {
    const squatter = createServer((_req, res) => res.end('not a bridge'));
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    onCleanup(() => new Promise<void>((resolve) => squatter.close(() => resolve())));
    const port = (squatter.address() as AddressInfo).port;
    let offered = false;
    await expect(
      startBridgeHost({
        config: configFor(['--port', String(port), '--data-dir', tempDir()]),
        offerAttach: async () => (offered = true),
      }),
    ).rejects.toThrow(`port ${port} on 127.0.0.1 is in use`);
    expect(offered).toBe(false);
  });
});

describe('launch arguments', () => {
  it('keeps the bridge flags and --hidden, and drops what Electron and Chromium add', () => {
    expect(
      parseLaunchArgs([
        'dist/electron/main.js',
        '--no-sandbox',
        '--port',
        '0',
        '--enable-logging',
        '--data-dir=/tmp/x',
        '--mcp-auth',
        '--hidden',
      ]),
    ).toEqual({ bridge: ['--port', '0', '--data-dir=/tmp/x', '--mcp-auth'], hidden: true, compose: false });
  });
});

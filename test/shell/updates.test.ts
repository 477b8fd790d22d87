// Updates through the real electron-updater against a local stand-in for GitHub's releases (no network): its
// releases.atom feed, its API's latest release, the release's latest-linux.yml and the AppImage it names. What
// cannot run here is Electron itself: the updater gets electron-updater's own AppAdapter seam instead of Electron's
// app, Node's HTTP instead of Electron's net, and quitAndInstall — which would quit and run the installer — only
// records that it was called.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, request, type RequestOptions, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DAY_MS, setupUpdates, type ShellUpdater, type UpdateKind } from '../../electron/updates.js';
import { onCleanup, tempDir } from '../helpers/bridge.js';
import { waitFor } from '../helpers/wait.js';

const require = createRequire(import.meta.url);
const { AppImageUpdater } = require('electron-updater') as {
  AppImageUpdater: new (
    options: unknown,
    app: unknown,
  ) => ShellUpdater & {
    logger: unknown;
    setFeedURL(options: unknown): void;
  };
};
const { ElectronHttpExecutor } = require('electron-updater/out/electronHttpExecutor') as {
  ElectronHttpExecutor: new () => { createRequest(options: RequestOptions, callback: (res: unknown) => void): unknown };
};

/** electron-updater's own HTTP executor (its download, its checks), with Node's http where it asks Electron's net */
class NodeNetExecutor extends ElectronHttpExecutor {
  override createRequest(options: RequestOptions, callback: (res: unknown) => void) {
    return request(options, callback);
  }
}

const APPIMAGE = Buffer.from('the AppImage of 0.2.0');

/** GitHub's release pages as electron-updater's GitHub provider reads them, for one release. */
async function standInGitHub(version: string) {
  const file = `aiti-bridge-desktop-${version}-linux-x86_64.AppImage`;
  const sha512 = createHash('sha512').update(APPIMAGE).digest('base64');
  const base = '/aiti-ai/aiti-bridge/releases';
  const requests: string[] = [];
  const routes: Record<string, [string, string | Buffer]> = {
    [`${base}.atom`]: [
      'application/atom+xml',
      `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"><entry><id>1</id><updated>2026-11-02T10:00:00Z</updated><link rel="alternate" type="text/html" href="https://github.com${base}/tag/v${version}"/><title>AITI Bridge v${version}</title><content type="html">Notes</content></entry></feed>`,
    ],
    '/api/v3/repos/aiti-ai/aiti-bridge/releases/latest': [
      'application/json',
      JSON.stringify({ tag_name: `v${version}` }),
    ],
    [`${base}/download/v${version}/latest-linux.yml`]: [
      'text/yaml',
      `version: ${version}\nfiles:\n  - url: ${file}\n    sha512: ${sha512}\n    size: ${APPIMAGE.length}\npath: ${file}\nsha512: ${sha512}\nreleaseDate: '2026-11-02T10:00:00.000Z'\n`,
    ],
    [`${base}/download/v${version}/${file}`]: ['application/octet-stream', APPIMAGE],
  };
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    const route = routes[path];
    if (!route) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': route[0] }).end(route[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { host: `127.0.0.1:${port}`, requests, file };
}

/** electron-updater's AppImageUpdater on the stand-in, as an installed 0.1.0 AppImage would run it. */
async function updaterFor(version: string) {
  const github = await standInGitHub(version);
  const home = tempDir('aiti-updates-');
  const appImage = join(home, 'AITI-Bridge.AppImage');
  writeFileSync(appImage, 'the AppImage of 0.1.0');
  // what electron-builder writes beside the asar (packed-app.test.ts reads the real one)
  writeFileSync(
    join(home, 'app-update.yml'),
    'owner: aiti-ai\nrepo: aiti-bridge\nprovider: github\nreleaseType: release\nupdaterCacheDirName: aiti-bridge-desktop-updater\n',
  );
  const previous = process.env.APPIMAGE;
  process.env.APPIMAGE = appImage;
  onCleanup(() => {
    if (previous === undefined) delete process.env.APPIMAGE;
    else process.env.APPIMAGE = previous;
  });
  // electron-updater's AppAdapter: what it asks Electron's app for
  const app = {
    version: '0.1.0',
    name: 'AITI Bridge',
    isPackaged: true,
    appUpdateConfigPath: join(home, 'app-update.yml'),
    userDataPath: join(home, 'userData'),
    baseCachePath: join(home, 'cache'),
    whenReady: () => Promise.resolve(),
    relaunch: () => undefined,
    quit: () => undefined,
    onQuit: () => undefined,
  };
  const updater = new AppImageUpdater(undefined, app);
  updater.logger = null;
  (updater as unknown as { httpExecutor: unknown }).httpExecutor = new NodeNetExecutor();
  // what electron-builder.yml's publish writes into app-update.yml, with the stand-in as GitHub
  updater.setFeedURL({
    provider: 'github',
    owner: 'aiti-ai',
    repo: 'aiti-bridge',
    host: github.host,
    protocol: 'http',
  });
  const installed: string[] = [];
  updater.quitAndInstall = () => void installed.push('quit and install');
  return { updater, github, installed };
}

function shell(updater: ShellUpdater, kind: UpdateKind, answer: boolean) {
  const seen = { asked: [] as string[], told: [] as string[], warned: [] as string[], every: 0 };
  let tick: () => void = () => undefined;
  const updates = setupUpdates({
    updater,
    kind,
    currentVersion: '0.1.0',
    releasesUrl: 'https://github.com/aiti-ai/aiti-bridge/releases',
    ask: async (version) => {
      seen.asked.push(version);
      return answer;
    },
    tell: (message) => seen.told.push(message),
    warn: (message) => seen.warned.push(message),
    every: (ms, check) => {
      seen.every = ms;
      tick = check;
      return () => undefined;
    },
  });
  return { updates, seen, nextDay: () => tick() };
}

describe('updates of the desktop app', () => {
  it('looks at start, asks before it installs, and only a yes downloads the release and restarts into it', async () => {
    const { updater, github, installed } = await updaterFor('0.2.0');
    const { seen } = shell(updater, 'install', true);
    await waitFor(() => installed.length === 1 || seen.told.length > 0, 10_000, 'the install');
    expect(seen.told).toEqual([]);
    expect(seen.asked).toEqual(['0.2.0']);
    expect(seen.every).toBe(DAY_MS);
    // the download came from the release, after the question
    expect(github.requests).toContain(`/aiti-ai/aiti-bridge/releases/download/v0.2.0/${github.file}`);
    expect(seen.warned).toEqual([]);
  });

  it('a "later" downloads nothing, and the next day\'s look asks again', async () => {
    const { updater, github, installed } = await updaterFor('0.2.0');
    const { seen, nextDay } = shell(updater, 'install', false);
    await waitFor(() => seen.asked.length === 1, 10_000, 'the question');
    nextDay();
    await waitFor(() => seen.asked.length === 2, 10_000, 'the question the next day');
    expect(installed).toEqual([]);
    expect(github.requests.filter((p) => p.endsWith('.AppImage'))).toEqual([]);
  });

  it('a deb or rpm install is told where the new version is, once, and never installs it itself', async () => {
    const { updater, installed } = await updaterFor('0.2.0');
    const { seen, updates } = shell(updater, 'announce', true);
    await waitFor(() => seen.told.length === 1, 10_000, 'the announcement');
    await updates.check();
    expect(seen.told).toEqual([
      'AITI Bridge 0.2.0 is out (this is 0.1.0): update it with your package manager, or download it from https://github.com/aiti-ai/aiti-bridge/releases',
    ]);
    expect([seen.asked, installed]).toEqual([[], []]);
  });

  it('the same version as installed asks nothing; an unreachable GitHub is only logged', async () => {
    const same = await updaterFor('0.1.0');
    const quiet = shell(same.updater, 'install', true);
    await quiet.updates.check();
    expect([quiet.seen.asked, quiet.seen.told, quiet.seen.warned]).toEqual([[], [], []]);

    const gone = await updaterFor('0.2.0');
    gone.updater.setFeedURL({
      provider: 'github',
      owner: 'aiti-ai',
      repo: 'aiti-bridge',
      host: '127.0.0.1:9',
      protocol: 'http',
    });
    const offline = shell(gone.updater, 'install', true);
    await waitFor(() => offline.seen.warned.length === 1, 10_000, 'the failed look to be logged');
    expect(offline.seen.warned[0]).toMatch(/^looking for updates failed: /);
    expect(offline.seen.told).toEqual([]);
  });
});

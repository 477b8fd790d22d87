import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, onCleanup, tempDir } from '../helpers/bridge.js';
import { waitFor } from '../helpers/wait.js';
import { installOffline, packFreshClone, type PackedPackage } from './offline-install.js';
import { nodeReleases } from './node-releases.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

// One pack (from a fresh clone, as a release does) and one install for the whole file: the tests below are what a
// user does next in that project.
let work = '';
let app = '';
let packed: PackedPackage;
let installLog = '';
const OFFLINE = { npm_config_offline: 'true', npm_config_update_notifier: 'false' };

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'aiti-pack-'));
  packed = packFreshClone(work);
  app = join(work, 'app');
  mkdirSync(app);
  // vite and typescript (with Node's types) are what a user's project brings for the vite.config.ts check
  installLog = installOffline(app, packed, ['vite', 'typescript', '@types/node']);
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** `npx aiti-bridge <args>` in the user's project, offline: npx fails rather than fetch from the registry. */
function npx(args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync('npx', ['aiti-bridge', ...args], {
    cwd: app,
    encoding: 'utf8',
    env: { ...process.env, ...OFFLINE, AITI_LOG: 'warn', ...env },
    timeout: 30_000,
  });
}

/** `npx aiti-bridge --port 0` in its own process group; resolves with the URL it prints. */
async function startFromPackage(dataDir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn('npx', ['aiti-bridge', '--port', '0', '--data-dir', dataDir], {
    cwd: app,
    env: { ...process.env, ...OFFLINE, AITI_LOG: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(-child.pid, 'SIGTERM');
    return exited;
  };
  onCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
  });
  await waitFor(() => /listening on http:\/\/\S+/.test(stderr) || child.exitCode !== null, 30_000, 'the URL');
  const url = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
  if (!url) throw new Error(`npx aiti-bridge --port 0 printed no URL:\n${stderr}`);
  return { url, stop };
}

describe(`the published package (${pkg.name}), packed and installed from the npm cache`, () => {
  it('ships the built code, the bin, README and LICENSE: no sources, tests or source maps', () => {
    const allowed =
      /^(package\.json|README\.md|LICENSE|bin\/aiti-bridge\.js|dist\/bridge\/.+\.(js|d\.ts|json)|dist\/page\/page\.js|dist\/renderer\/.+)$/;
    expect(packed.files.filter((file) => !allowed.test(file) || file.endsWith('.map'))).toEqual([]);
    for (const needed of [
      'dist/bridge/cli.js',
      'dist/bridge/index.d.ts',
      'dist/bridge/vite-plugin.d.ts',
      'dist/page/page.js',
      'dist/renderer/index.html',
      'LICENSE',
    ]) {
      expect(packed.files).toContain(needed);
    }
  });

  it("its registry page works: it names its repository, homepage and issues, and README's images load from there", () => {
    const installed = join(app, 'node_modules', pkg.name);
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
      repository?: { url?: string };
      homepage?: string;
      bugs?: { url?: string };
    };
    const repo = /^git\+(https:\/\/github\.com\/[\w.-]+\/[\w.-]+)\.git$/.exec(manifest.repository?.url ?? '')?.[1];
    expect(repo, 'repository.url is git+https://github.com/<owner>/<name>.git').toBeDefined();
    expect(manifest.homepage).toBe(`${repo}#readme`);
    expect(manifest.bugs?.url).toBe(`${repo}/issues`);
    // the registry shows README without the repository's files: every image is an absolute URL into the repository
    const readme = readFileSync(join(installed, 'README.md'), 'utf8');
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)|<img [^>]*src="([^"]+)"/g)].map(
      (m) => m[1] ?? m[2] ?? '',
    );
    expect(images.length).toBeGreaterThan(0);
    const raw = (repo ?? '').replace('https://github.com/', 'https://raw.githubusercontent.com/');
    for (const image of images) expect(image.startsWith(`${raw}/main/`), image).toBe(true);
    for (const image of images) expect(existsSync(join(ROOT, image.slice(`${raw}/main/`.length))), image).toBe(true);
  });

  it('installs without engine warnings and without Electron', () => {
    expect(installLog).not.toMatch(/EBADENGINE/);
    expect(existsSync(join(app, 'node_modules', 'electron'))).toBe(false);
    expect(existsSync(join(app, 'node_modules', '.bin', 'aiti-bridge'))).toBe(true);
  });

  it('npx aiti-bridge --help prints the usage', () => {
    const result = npx(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('aiti-bridge --stdio');
    expect(result.stdout).toContain('--port');
  });

  it('npx aiti-bridge --port 0 serves the bridge, its page script and window; --stdio reaches it', async () => {
    const { url, stop } = await startFromPackage(tempDir());
    expect((await http(`${url}/bridge/health`)).body).toEqual({ ok: true, version: pkg.version });
    expect((await http(`${url}/aiti/page.js`)).status).toBe(200);
    expect((await http(`${url}/aiti/ui/`)).status).toBe(200);

    const client = new Client({ name: 'install-check', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: 'npx',
        args: ['aiti-bridge', '--stdio'],
        cwd: app,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          ...OFFLINE,
          AITI_BRIDGE_URL: url,
          AITI_LOG: 'warn',
        },
        stderr: 'pipe',
      }),
    );
    expect(client.getServerVersion()).toMatchObject({ name: 'aiti-bridge', version: pkg.version });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('bridge_status');
    await client.close();

    await stop();
    await expect(fetch(`${url}/bridge/health`)).rejects.toThrow();
  });

  it('npx aiti-bridge --register-shim --dry-run names the installed bin and writes nothing', () => {
    const home = tempDir();
    mkdirSync(join(home, '.claude'));
    const result = npx(['--register-shim', '--dry-run'], { HOME: home, XDG_CONFIG_HOME: join(home, '.config') });
    expect(result.status).toBe(0);
    const bin = join(app, 'node_modules', pkg.name, 'bin', 'aiti-bridge.js');
    expect(result.stdout).toContain(`running the shim: ${process.execPath} ${bin} --stdio`);
    expect(result.stdout).toMatch(/Claude Code .*aiti entry would be added/);
    expect(existsSync(join(home, '.claude.json'))).toBe(false);
  });

  it('import("@aiti-ai/aiti-bridge") gives createBridge, which starts a working bridge, and the wire schemas', async () => {
    const dataDir = tempDir();
    const script = `
      const { createBridge, AgentId } = await import(${JSON.stringify(pkg.name)});
      const bridge = await createBridge({ port: 0, dataDir: ${JSON.stringify(dataDir)} });
      const health = await (await fetch(bridge.url + '/bridge/health')).json();
      await bridge.close();
      console.log(JSON.stringify({ health, agentId: AgentId.safeParse('claude-code').success }));`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: app,
      encoding: 'utf8',
      env: { ...process.env, AITI_LOG: 'warn' },
      timeout: 30_000,
    });
    expect(result.stderr).toBe('');
    const out = JSON.parse(result.stdout) as { health: unknown; agentId: boolean };
    expect(out.health).toEqual({ ok: true, version: pkg.version });
    // the wire schemas come with it
    expect(out.agentId).toBe(true);
  });

  it('its types check in a strict vite.config.ts and a script using createBridge (no TS7016)', () => {
    writeFileSync(
      join(app, 'vite.config.ts'),
      `import { defineConfig } from 'vite';
import { aitiBridge } from '${pkg.name}/vite';

export default defineConfig({ plugins: [aitiBridge({ bridgeUrl: 'http://127.0.0.1:8777' })] });
`,
    );
    writeFileSync(
      join(app, 'start.ts'),
      `import { createBridge, type Bridge, type BridgeConfig } from '${pkg.name}';

const config: Partial<BridgeConfig> = { port: 0 };
export const started: Promise<Bridge> = createBridge(config);
`,
    );
    // the plugin against Vite's own types (not re-checked: skipLibCheck, as Vite's templates set it); the API with
    // every declaration file checked, ours included, so none may need a type the package does not bring
    const projects = {
      'tsconfig.vite.json': { files: ['vite.config.ts'], compilerOptions: { skipLibCheck: true, types: ['node'] } },
      'tsconfig.api.json': { files: ['start.ts'], compilerOptions: { skipLibCheck: false, types: ['node'] } },
    };
    for (const [name, project] of Object.entries(projects)) {
      const compilerOptions = {
        strict: true,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        noEmit: true,
        ...project.compilerOptions,
      };
      writeFileSync(join(app, name), JSON.stringify({ compilerOptions, files: project.files }));
      const tsc = spawnSync(process.execPath, [join(app, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', name], {
        cwd: app,
        encoding: 'utf8',
        timeout: 240_000,
      });
      expect(`${name}: ${tsc.stdout}${tsc.stderr}`).toBe(`${name}: `);
      expect(tsc.status).toBe(0);
    }
  }, 300_000);
  it('import "@aiti-ai/aiti-bridge/vite" typechecks in a project without Vite (an optional peer)', () => {
    // the installed package (copied: TypeScript would follow a link back to the project that has vite), TypeScript
    // and Node's types, and nothing else: no vite anywhere above it
    const bare = join(work, 'no-vite');
    cpSync(join(app, 'node_modules', pkg.name), join(bare, 'node_modules', pkg.name), { recursive: true });
    for (const name of ['typescript', '@types/node']) {
      mkdirSync(join(bare, 'node_modules', name, '..'), { recursive: true });
      symlinkSync(join(app, 'node_modules', name), join(bare, 'node_modules', name), 'dir');
    }
    writeFileSync(
      join(bare, 'plugins.ts'),
      `import { aitiBridge, type AitiVitePlugin } from '${pkg.name}/vite';\n\nexport const plugin: AitiVitePlugin = aitiBridge();\n`,
    );
    const compilerOptions = {
      strict: true,
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      target: 'ES2022',
      noEmit: true,
      skipLibCheck: false,
      types: ['node'],
    };
    writeFileSync(join(bare, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['plugins.ts'] }));
    const tsc = spawnSync(process.execPath, [join(bare, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], {
      cwd: bare,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
    expect(tsc.status).toBe(0);
  }, 150_000);
});

describe.each(nodeReleases())('the installed package on Node $wanted', (release) => {
  it('prints its version, serves the bridge, and its stdio shim answers the SDK client', async (ctx) => {
    const node = release.binary();
    if (!node.path) return ctx.skip(node.why);
    const bin = join(app, 'node_modules', pkg.name, 'bin', 'aiti-bridge.js');
    expect(spawnSync(node.path, [bin, '--version'], { encoding: 'utf8' }).stdout.trim()).toBe(pkg.version);

    const child = spawn(node.path, [bin, '--port', '0', '--data-dir', tempDir()], {
      cwd: app,
      env: { ...process.env, AITI_LOG: 'warn' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    onCleanup(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await waitFor(() => /listening on http:\/\/\S+/.test(stderr) || child.exitCode !== null, 30_000, 'the URL');
    const url = /listening on (http:\/\/\S+)/.exec(stderr)?.[1] ?? `(none; stderr: ${stderr})`;
    expect((await http(`${url}/bridge/health`)).body).toEqual({ ok: true, version: pkg.version });

    const client = new Client({ name: 'node-versions', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: node.path,
        args: [bin, '--stdio'],
        env: { PATH: process.env.PATH ?? '', AITI_BRIDGE_URL: url, AITI_LOG: 'warn' },
        stderr: 'pipe',
      }),
    );
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('bridge_status');
    const status = await client.callTool({ name: 'bridge_status', arguments: {} });
    expect(status.isError).toBeFalsy();
    await client.close();
    child.kill('SIGTERM');
  }, 180_000);
});

import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findNode, nodeProblem, type NodeFinderDeps } from '../../electron/node-finder.js';
import { runCommand } from '../../electron/run-command.js';
import { loginShellEnv } from '../../electron/shell-env.js';
import { tempDir } from '../helpers/bridge.js';

/** A program at `path` that answers --version like a Node of `version` does. */
function fakeNode(path: string, version: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `#!/bin/sh\n[ "$1" = --version ] && echo ${version}\n`);
  chmodSync(path, 0o755);
  return path;
}

/**
 * The finder on real files and real processes, confined to one temporary machine: only paths under `root` exist
 * for it (this machine's own /usr/bin/node stays out of the test).
 */
function machine(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = 'darwin') {
  const root = tempDir('aiti-machine-');
  const home = join(root, 'home', 'me');
  mkdirSync(home, { recursive: true });
  const deps = (): NodeFinderDeps => ({
    platform,
    env,
    home,
    run: runCommand,
    exists: (path) => path.startsWith(root) && existsSync(path),
    list: (folder) => (folder.startsWith(root) && existsSync(folder) ? readdirSync(folder) : []),
  });
  return { root, home, deps };
}

describe('the Node the registered shim runs with', () => {
  it("takes the first new-enough Node on the login shell's PATH, by its absolute path, past an old one", async () => {
    const m = machine({});
    const old = fakeNode(join(m.root, 'usr', 'local', 'bin', 'node'), 'v18.19.0');
    const nvm = fakeNode(join(m.home, '.nvm', 'versions', 'node', 'v22.12.0', 'bin', 'node'), 'v22.12.0');
    const search = await findNode({ ...m.deps(), env: { PATH: [dirname(old), dirname(nvm)].join(':') } });
    expect(search).toEqual({
      node: { path: nvm, version: 'v22.12.0' },
      tooOld: [{ path: old, version: 'v18.19.0' }],
    });
  });

  it('an app started from the dock, whose PATH has no Node: finds nvm’s newest release itself', async () => {
    const m = machine({ PATH: '/usr/bin:/bin' });
    fakeNode(join(m.home, '.nvm', 'versions', 'node', 'v20.9.0', 'bin', 'node'), 'v20.9.0');
    const newest = fakeNode(join(m.home, '.nvm', 'versions', 'node', 'v24.1.0', 'bin', 'node'), 'v24.1.0');
    fakeNode(join(m.home, '.nvm', 'versions', 'node', 'v22.3.0', 'bin', 'node'), 'v22.3.0');
    expect((await findNode(m.deps())).node).toEqual({ path: newest, version: 'v24.1.0' });
  });

  it('Volta on Windows-less Linux, and a real Node: the one this test runs on', async () => {
    const m = machine({}, 'linux');
    const volta = fakeNode(join(m.home, '.volta', 'bin', 'node'), 'v22.1.0');
    expect((await findNode(m.deps())).node?.path).toBe(volta);
    const real = await findNode({ ...m.deps(), env: { PATH: dirname(process.execPath) }, exists: existsSync });
    expect(real.node).toEqual({ path: process.execPath, version: process.version });
  });

  it('none new enough: says what was found, what to install, and the way without Node', async () => {
    const m = machine({});
    const old = fakeNode(join(m.root, 'opt', 'node16', 'node'), 'v16.20.2');
    const search = await findNode({ ...m.deps(), env: { PATH: dirname(old) } });
    expect(search.node).toBeUndefined();
    expect(nodeProblem(search, 'darwin', 'http://127.0.0.1:8777/mcp/mcp')).toBe(
      `MCP clients cannot run the aiti shim: it needs Node.js 20.11 or newer and none was found (${old} is v16.20.2: too old). Install Node.js 22 LTS from https://nodejs.org or with "brew install node", then choose "Register with MCP clients" again; or add http://127.0.0.1:8777/mcp/mcp to your client as a Streamable HTTP server, which needs no Node.`,
    );
    // a program named node that is not Node is passed over
    const fake = join(m.root, 'bin', 'node');
    mkdirSync(dirname(fake), { recursive: true });
    writeFileSync(fake, '#!/bin/sh\necho "not node"\n');
    chmodSync(fake, 0o755);
    expect(await findNode({ ...m.deps(), env: { PATH: dirname(fake) } })).toEqual({ tooOld: [] });
  });
});

describe("the login shell's environment", () => {
  it('gives PATH and the clients’ folders as a terminal of this user has them, past what startup files print', async () => {
    const home = tempDir('aiti-home-');
    writeFileSync(
      join(home, '.bash_profile'),
      'echo "Welcome back"\nexport PATH="$HOME/.nvm/versions/node/v22.12.0/bin:$PATH"\nexport CLAUDE_CONFIG_DIR="$HOME/work claude"\nexport UNRELATED=1\n',
    );
    const env = await loginShellEnv({
      platform: 'linux',
      env: { HOME: home, SHELL: '/bin/bash', PATH: '/usr/bin:/bin' },
      run: runCommand,
    });
    // the login shell's own PATH (/etc/profile sets one), with what the user's profile put in front
    expect(Object.keys(env).sort()).toEqual(['CLAUDE_CONFIG_DIR', 'PATH']);
    expect(env.PATH).toMatch(new RegExp(`^${home}/\\.nvm/versions/node/v22\\.12\\.0/bin:.*/usr/bin`));
    expect(env.CLAUDE_CONFIG_DIR).toBe(`${home}/work claude`);
  });

  it('a shell that fails or hangs gives nothing, in bounded time; Windows asks no shell', async () => {
    const home = tempDir('aiti-home-');
    expect(
      await loginShellEnv({ platform: 'darwin', env: { HOME: home, SHELL: '/bin/false' }, run: runCommand }),
    ).toEqual({});
    writeFileSync(join(home, '.bash_profile'), 'sleep 30\n');
    const started = Date.now();
    const run: typeof runCommand = (command, args, options) =>
      runCommand(command, args, { ...options, timeoutMs: 500 });
    expect(await loginShellEnv({ platform: 'linux', env: { HOME: home, SHELL: '/bin/bash' }, run })).toEqual({});
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await loginShellEnv({ platform: 'win32', env: {}, run: async () => undefined })).toEqual({});
  });
});

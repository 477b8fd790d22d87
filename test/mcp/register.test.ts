import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { registerShim, type RegisterReport } from '../../bridge/register/register.js';
import { backupsOf } from '../../bridge/register/replace-file.js';
import { tempDir } from '../helpers/bridge.js';

const BIN = fileURLToPath(new URL('../../bin/aiti-bridge.js', import.meta.url));
const shim = { command: '/usr/bin/node', args: ['/opt/aiti/bin/aiti-bridge.js', '--stdio'] };

const CLAUDE = JSON.stringify(
  { numStartups: 12, mcpServers: { github: { type: 'stdio', command: 'gh-mcp', args: [] } }, projects: { '/src': {} } },
  null,
  2,
);
const CURSOR = '{\n  // my servers\n  "mcpServers": {\n    "db": { "command": "db-mcp" }\n  }\n}\n';
const VSCODE = '{\n\t"servers": {\n\t\t"fs": {\n\t\t\t"type": "stdio",\n\t\t\t"command": "fs-mcp"\n\t\t}\n\t}\n}\n';
const CODEX = '# my codex config\nmodel = "o3"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\nargs = ["--fast"]\n';

/** A home folder with all four clients installed and configured with other servers. */
interface Files {
  claude: string;
  cursor: string;
  vscode: string;
  codex: string;
}

function homeWithConfigs(): { home: string; files: Files } {
  const home = tempDir('aiti-home-');
  const files: Files = {
    claude: join(home, '.claude.json'),
    cursor: join(home, '.cursor', 'mcp.json'),
    vscode: join(home, '.config', 'Code', 'User', 'mcp.json'),
    codex: join(home, '.codex', 'config.toml'),
  };
  const contents = { claude: CLAUDE, cursor: CURSOR, vscode: VSCODE, codex: CODEX };
  for (const [key, file] of Object.entries(files)) {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, contents[key as keyof typeof contents]);
  }
  return { home, files };
}

const options = (home: string) => ({ home, shim, platform: 'linux' as const, env: {} });
/** The clients of a report that are installed in the home (VS Code Insiders, Gemini CLI … are not, here). */
const found = (report: RegisterReport) => report.clients.filter((c) => c.status !== 'not-found');
const json = (file: string) =>
  JSON.parse(readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '')) as Record<string, Record<string, unknown>>;

describe('--register-shim', () => {
  it('adds the aiti entry to every client config, keeps the rest and makes a backup', () => {
    const { home, files } = homeWithConfigs();
    const report = registerShim(options(home));
    expect(report.clients.map((c) => [c.client, c.status])).toEqual([
      ['Claude Code', 'added'],
      ['Cursor', 'added'],
      ['VS Code', 'added'],
      ['VS Code Insiders', 'not-found'],
      ['Codex', 'added'],
      ['Gemini CLI', 'not-found'],
    ]);
    const claude = json(files.claude);
    expect(claude.mcpServers).toEqual({
      github: { type: 'stdio', command: 'gh-mcp', args: [] },
      aiti: { type: 'stdio', command: '/usr/bin/node', args: ['/opt/aiti/bin/aiti-bridge.js', '--stdio'] },
    });
    expect(claude.numStartups).toBe(12);
    expect(readFileSync(files.cursor, 'utf8')).toContain('// my servers');
    expect(json(files.cursor).mcpServers?.aiti).toEqual({ command: '/usr/bin/node', args: shim.args });
    expect(json(files.vscode).servers?.aiti).toMatchObject({ type: 'stdio', command: '/usr/bin/node' });
    const codex = parseToml(readFileSync(files.codex, 'utf8')) as {
      model: string;
      mcp_servers: Record<string, unknown>;
    };
    expect(codex.model).toBe('o3');
    expect(codex.mcp_servers).toEqual({
      docs: { command: 'docs-mcp', args: ['--fast'] },
      aiti: { command: '/usr/bin/node', args: shim.args },
    });
    expect(readFileSync(files.codex, 'utf8')).toContain('# my codex config');
    for (const file of Object.values(files)) expect(backupsOf(file)).toHaveLength(1);
    expect(readFileSync(backupsOf(files.claude)[0] ?? '', 'utf8')).toBe(CLAUDE);
    for (const file of Object.values(files)) expect(readFileSync(file, 'utf8')).not.toMatch(/http:\/\/|8777/);
  });

  it('changes nothing when run a second time', () => {
    const { home, files } = homeWithConfigs();
    registerShim(options(home));
    const after = Object.values(files).map((f) => readFileSync(f, 'utf8'));
    const again = registerShim(options(home));
    expect(found(again).map((c) => c.status)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
    expect(Object.values(files).map((f) => readFileSync(f, 'utf8'))).toEqual(after);
  });

  it('updates an entry that runs another command', () => {
    const { home, files } = homeWithConfigs();
    registerShim(options(home));
    const moved = registerShim({ ...options(home), shim: { command: '/usr/local/bin/node', args: shim.args } });
    expect(found(moved).map((c) => c.status)).toEqual(['updated', 'updated', 'updated', 'updated']);
    expect(json(files.cursor).mcpServers?.aiti).toMatchObject({ command: '/usr/local/bin/node' });
    expect(
      (parseToml(readFileSync(files.codex, 'utf8')) as { mcp_servers: Record<string, { command: string }> }).mcp_servers
        .aiti?.command,
    ).toBe('/usr/local/bin/node');
  });

  it('keeps what the user added to the entry (env) in all four clients when it runs again after a move', () => {
    const { home, files } = homeWithConfigs();
    registerShim(options(home));
    const url = 'http://127.0.0.1:9999';
    // what the README advises for another port: AITI_BRIDGE_URL in the entry's environment, added by hand
    for (const [file, container] of [
      [files.claude, 'mcpServers'],
      [files.cursor, 'mcpServers'],
      [files.vscode, 'servers'],
    ] as const) {
      const text = readFileSync(file, 'utf8').replace(/\/\/.*$/gm, '');
      const data = JSON.parse(text) as Record<string, Record<string, Record<string, unknown>>>;
      const entry = data[container]?.aiti ?? {};
      entry.env = { AITI_BRIDGE_URL: url };
      entry.timeout = 20000;
      writeFileSync(file, JSON.stringify(data, null, 2));
    }
    writeFileSync(
      files.codex,
      readFileSync(files.codex, 'utf8').replace(
        '[mcp_servers.aiti]\n',
        '[mcp_servers.aiti]\nstartup_timeout_sec = 20\n',
      ) + `\n[mcp_servers.aiti.env]\nAITI_BRIDGE_URL = "${url}"\n`,
    );

    const moved = { command: '/usr/local/bin/node', args: ['/home/me/aiti/bin/aiti-bridge.js', '--stdio'] };
    const report = registerShim({ ...options(home), shim: moved });
    expect(found(report).map((c) => c.status)).toEqual(['updated', 'updated', 'updated', 'updated']);
    expect(json(files.claude).mcpServers?.aiti).toEqual({
      type: 'stdio',
      ...moved,
      env: { AITI_BRIDGE_URL: url },
      timeout: 20000,
    });
    expect(json(files.cursor).mcpServers?.aiti).toEqual({ ...moved, env: { AITI_BRIDGE_URL: url }, timeout: 20000 });
    expect(json(files.vscode).servers?.aiti).toEqual({
      type: 'stdio',
      ...moved,
      env: { AITI_BRIDGE_URL: url },
      timeout: 20000,
    });
    const codex = parseToml(readFileSync(files.codex, 'utf8')) as { mcp_servers: Record<string, unknown> };
    expect(codex.mcp_servers.aiti).toEqual({ ...moved, startup_timeout_sec: 20, env: { AITI_BRIDGE_URL: url } });
    expect(codex.mcp_servers.docs).toEqual({ command: 'docs-mcp', args: ['--fast'] });
    expect(report.clients[0]?.after).toMatchObject({ env: { AITI_BRIDGE_URL: url } });

    const again = registerShim({ ...options(home), shim: moved });
    expect(found(again).map((c) => c.status)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
  });

  it('takes over an entry written by hand: its command, args and type change, the rest stays', () => {
    const home = tempDir('aiti-home-');
    const file = join(home, '.claude.json');
    const handWritten = { type: 'stdio', command: 'npx', args: ['-y', 'aiti-bridge', '--stdio'], env: { A: '1' } };
    writeFileSync(file, JSON.stringify({ mcpServers: { aiti: handWritten } }, null, 2));
    const codexFile = join(home, '.codex', 'config.toml');
    mkdirSync(join(home, '.codex'));
    writeFileSync(
      codexFile,
      '[mcp_servers.aiti]\ncommand = "npx"\nargs = [\n  "-y",\n  "aiti-bridge",\n  "--stdio",\n]\nenv = { A = "1" }\n',
    );
    const report = registerShim(options(home));
    expect(found(report).map((c) => c.status)).toEqual(['updated', 'updated']);
    expect(json(file).mcpServers?.aiti).toEqual({ type: 'stdio', ...shim, env: { A: '1' } });
    expect(
      (parseToml(readFileSync(codexFile, 'utf8')) as { mcp_servers: Record<string, unknown> }).mcp_servers.aiti,
    ).toEqual({ ...shim, env: { A: '1' } });
  });

  it('--unregister gives back the files as they were', () => {
    const { home, files } = homeWithConfigs();
    registerShim(options(home));
    const report = registerShim({ ...options(home), unregister: true });
    expect(found(report).map((c) => c.status)).toEqual(['removed', 'removed', 'removed', 'removed']);
    expect(readFileSync(files.claude, 'utf8')).toBe(CLAUDE);
    expect(readFileSync(files.cursor, 'utf8')).toBe(CURSOR);
    expect(readFileSync(files.vscode, 'utf8')).toBe(VSCODE);
    expect(readFileSync(files.codex, 'utf8')).toBe(CODEX);
    expect(found(registerShim({ ...options(home), unregister: true })).map((c) => c.status)).toEqual([
      'absent',
      'absent',
      'absent',
      'absent',
    ]);
  });

  it('--dry-run reports the change and writes nothing', () => {
    const { home, files } = homeWithConfigs();
    const report = registerShim({ ...options(home), dryRun: true });
    expect(found(report).map((c) => c.status)).toEqual(['added', 'added', 'added', 'added']);
    expect(report.clients[0]?.after).toMatchObject({ command: '/usr/bin/node' });
    expect(readFileSync(files.claude, 'utf8')).toBe(CLAUDE);
    expect(backupsOf(files.claude)).toEqual([]);
  });

  it('says which clients it did not find, creates a missing config of an installed client, and leaves a broken file alone', () => {
    const home = tempDir('aiti-home-');
    mkdirSync(join(home, '.cursor'));
    mkdirSync(join(home, '.codex'));
    writeFileSync(join(home, '.codex', 'config.toml'), 'model = \n');
    const report = registerShim(options(home));
    expect(report.clients.map((c) => [c.client, c.status])).toEqual([
      ['Claude Code', 'not-found'],
      ['Cursor', 'added'],
      ['VS Code', 'not-found'],
      ['VS Code Insiders', 'not-found'],
      ['Codex', 'error'],
      ['Gemini CLI', 'not-found'],
    ]);
    expect(json(join(home, '.cursor', 'mcp.json')).mcpServers?.aiti).toBeDefined();
    expect(report.clients[4]?.error).toContain('not valid TOML');
    expect(readFileSync(join(home, '.codex', 'config.toml'), 'utf8')).toBe('model = \n');
  });

  it('runs from the CLI with --dry-run on the HOME it is given', async () => {
    const { home, files } = homeWithConfigs();
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, '--register-shim', '--dry-run'], {
      env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config') },
    });
    expect(stdout).toContain('aiti entry would be added');
    expect(stdout).toContain(files.cursor);
    expect(stdout).toContain('--stdio');
    expect(readFileSync(files.cursor, 'utf8')).toBe(CURSOR);
  });
});

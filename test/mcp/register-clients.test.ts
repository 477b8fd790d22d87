import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { registerShim } from '../../bridge/register/register.js';
import { tempDir } from '../helpers/bridge.js';

const BIN = fileURLToPath(new URL('../../bin/aiti-bridge.js', import.meta.url));
const shim = { command: '/usr/bin/node', args: ['/opt/aiti/bin/aiti-bridge.js', '--stdio'] };

const installed = (report: ReturnType<typeof registerShim>) =>
  report.clients.filter((c) => c.status !== 'not-found').map((c) => [c.client, c.file, c.status]);
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;

describe('--register-shim finds each client where it keeps its config', () => {
  it('follows CLAUDE_CONFIG_DIR (Claude Code keeps .claude.json inside it) and CODEX_HOME', () => {
    const home = tempDir('aiti-home-');
    const claudeDir = join(home, 'claude-work');
    const codexDir = join(home, 'codex-work');
    mkdirSync(claudeDir);
    mkdirSync(codexDir);
    // the default places exist too, and must stay untouched
    mkdirSync(join(home, '.claude'));
    writeFileSync(join(home, '.claude.json'), '{}');
    const report = registerShim({
      home,
      shim,
      platform: 'linux',
      env: { CLAUDE_CONFIG_DIR: claudeDir, CODEX_HOME: codexDir },
    });
    expect(installed(report)).toEqual([
      ['Claude Code', join(claudeDir, '.claude.json'), 'added'],
      ['Codex', join(codexDir, 'config.toml'), 'added'],
    ]);
    expect(json(join(claudeDir, '.claude.json')).mcpServers?.aiti).toEqual({ type: 'stdio', ...shim });
    expect(parseToml(readFileSync(join(codexDir, 'config.toml'), 'utf8'))).toEqual({ mcp_servers: { aiti: shim } });
    expect(readFileSync(join(home, '.claude.json'), 'utf8')).toBe('{}');
    expect(existsSync(join(home, '.codex'))).toBe(false);
  });

  it('knows Gemini CLI: ~/.gemini/settings.json, or the .gemini folder in GEMINI_CLI_HOME', () => {
    const home = tempDir('aiti-home-');
    mkdirSync(join(home, '.gemini'));
    writeFileSync(join(home, '.gemini', 'settings.json'), '{\n  "theme": "GitHub"\n}\n');
    let report = registerShim({ home, shim, platform: 'linux', env: {} });
    expect(installed(report)).toEqual([['Gemini CLI', join(home, '.gemini', 'settings.json'), 'added']]);
    expect(json(join(home, '.gemini', 'settings.json'))).toEqual({ theme: 'GitHub', mcpServers: { aiti: shim } });

    const elsewhere = tempDir('aiti-gemini-');
    mkdirSync(join(elsewhere, '.gemini'));
    report = registerShim({ home, shim, platform: 'linux', env: { GEMINI_CLI_HOME: elsewhere } });
    expect(installed(report)).toEqual([['Gemini CLI', join(elsewhere, '.gemini', 'settings.json'), 'added']]);
  });

  it.each([
    ['linux', ['.config']],
    ['darwin', ['Library', 'Application Support']],
    ['win32', ['AppData', 'Roaming']],
  ] as const)('knows VS Code Insiders beside VS Code on %s', (platform, base) => {
    const home = tempDir('aiti-home-');
    const insiders = join(home, ...base, 'Code - Insiders', 'User');
    mkdirSync(insiders, { recursive: true });
    const report = registerShim({ home, shim, platform, env: {} });
    expect(installed(report)).toEqual([['VS Code Insiders', join(insiders, 'mcp.json'), 'added']]);
    expect(json(join(insiders, 'mcp.json')).servers?.aiti).toEqual({ type: 'stdio', ...shim });
  });

  it('registers in every VS Code profile, named as VS Code names them', () => {
    const home = tempDir('aiti-home-');
    const user = join(home, '.config', 'Code', 'User');
    for (const id of ['-4f1c2e', '7a9b3d']) mkdirSync(join(user, 'profiles', id), { recursive: true });
    mkdirSync(join(user, 'globalStorage'));
    writeFileSync(
      join(user, 'globalStorage', 'storage.json'),
      JSON.stringify({ userDataProfiles: [{ location: '-4f1c2e', name: 'Python', icon: 'snake' }] }),
    );
    const report = registerShim({ home, shim, platform: 'linux', env: {} });
    expect(installed(report)).toEqual([
      ['VS Code', join(user, 'mcp.json'), 'added'],
      ['VS Code (profile Python)', join(user, 'profiles', '-4f1c2e', 'mcp.json'), 'added'],
      ['VS Code (profile 7a9b3d)', join(user, 'profiles', '7a9b3d', 'mcp.json'), 'added'],
    ]);
    expect(json(join(user, 'profiles', '7a9b3d', 'mcp.json')).servers?.aiti).toEqual({ type: 'stdio', ...shim });
  });
});

describe('--register-shim --dry-run', () => {
  it('prints the entry it would write in each client’s own format, and writes nothing', () => {
    const home = tempDir('aiti-home-');
    // VS Code's user folder where this platform keeps it (the CLI runs for this machine's platform)
    const vscode = {
      darwin: join('Library', 'Application Support', 'Code', 'User'),
      win32: join('AppData', 'Roaming', 'Code', 'User'),
    }[process.platform as string];
    for (const dir of ['.claude', '.codex', vscode ?? join('.config', 'Code', 'User')]) {
      mkdirSync(join(home, dir), { recursive: true });
    }
    writeFileSync(join(home, '.codex', 'config.toml'), '[mcp_servers.aiti]\ncommand = "npx"\n');
    const stdout = execFileSync(process.execPath, [BIN, '--register-shim', '--dry-run'], {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        USERPROFILE: home,
        APPDATA: join(home, 'AppData', 'Roaming'),
        XDG_CONFIG_HOME: join(home, '.config'),
      },
    });
    const entry = { command: process.execPath, args: [BIN, '--stdio'] };
    // each client's block, the indented lines after its "it would write:", parses as that client's own format
    const written = (client: string) => {
      const block = stdout.split(/\n(?=\S)/).find((b) => b.startsWith(client)) ?? '';
      const text = block.split('it would write:\n')[1] ?? '';
      return text.replace(/^ {6}/gm, '');
    };
    expect(stdout).toMatch(/^Claude Code +\S+\.claude\.json: aiti entry would be added\n {4}it would write:\n/m);
    expect(JSON.parse(written('Claude Code'))).toEqual({ mcpServers: { aiti: { type: 'stdio', ...entry } } });
    expect(JSON.parse(written('VS Code'))).toEqual({ servers: { aiti: { type: 'stdio', ...entry } } });
    expect(written('Codex')).toBe(
      `[mcp_servers.aiti]\ncommand = ${JSON.stringify(entry.command)}\nargs = [ ${entry.args.map((a) => JSON.stringify(a)).join(', ')} ]`,
    );
    // an update also shows what is there now, in the same format
    expect(stdout).toContain('Codex');
    expect(stdout).toContain('    now:\n      [mcp_servers.aiti]\n      command = "npx"\n');
    expect(existsSync(join(home, '.claude.json'))).toBe(false);
    expect(readFileSync(join(home, '.codex', 'config.toml'), 'utf8')).toBe('[mcp_servers.aiti]\ncommand = "npx"\n');
  });
});

import { spawn, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerShim, type RegisterOptions } from '../../bridge/register/register.js';
import { BACKUPS_KEPT, backupsOf } from '../../bridge/register/replace-file.js';
import { tempDir } from '../helpers/bridge.js';

const shim = { command: '/usr/bin/node', args: ['/opt/aiti/bin/aiti-bridge.js', '--stdio'] };

/** A home where only Claude Code is installed, its config holding `config`. */
function claudeHome(config: Record<string, unknown> = { numStartups: 12, mcpServers: {} }) {
  const home = tempDir('aiti-home-');
  mkdirSync(join(home, '.claude'));
  const file = join(home, '.claude.json');
  writeFileSync(file, JSON.stringify(config, null, 2));
  return { home, file };
}

const run = (home: string, more: Partial<RegisterOptions> = {}) => {
  const report = registerShim({ home, shim, platform: 'linux', env: {}, ...more });
  const claude = report.clients.find((c) => c.client === 'Claude Code');
  if (!claude) throw new Error('no Claude Code in the report');
  return claude;
};
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

/**
 * Claude Code rewriting its own config, as a separate process: it reads the file, changes its own key and puts
 * the whole file back by rename (its own write is atomic too), keeping whatever else is in it.
 */
const CLIENT_REWRITE = `
const fs = require('node:fs');
const [file, key, value] = process.argv.slice(1);
const data = JSON.parse(fs.readFileSync(file, 'utf8'));
data[key] = Number(value);
fs.writeFileSync(file + '.client-tmp', JSON.stringify(data, null, 2));
fs.renameSync(file + '.client-tmp', file);
`;
const clientRewrites = (file: string, key: string, value: number) => {
  const result = spawnSync(process.execPath, ['-e', CLIENT_REWRITE, file, key, String(value)], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`the client's rewrite failed: ${result.stderr}`);
};

describe('--register-shim writes each config whole, with dated backups', () => {
  it("keeps the file's mode: Claude Code's 0600 config stays 0600, and so does its backup", () => {
    const { home, file } = claudeHome();
    const original = readFileSync(file, 'utf8');
    spawnSync('chmod', ['600', file]);
    expect(run(home).status).toBe('added');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const [backup] = backupsOf(file);
    expect(backup).toMatch(/\.claude\.json\.aiti-backup-\d{8}T\d{6}Z$/);
    expect(readFileSync(backup ?? '', 'utf8')).toBe(original);
    expect(statSync(backup ?? '').mode & 0o777).toBe(0o600);
    // no temporary file is left beside it
    expect(readdirSync(home).sort()).toEqual(['.claude', '.claude.json', backup?.slice(home.length + 1)].sort());
  });

  it(`keeps a dated backup per change, the newest ${BACKUPS_KEPT}, never overwriting one`, () => {
    const { home, file } = claudeHome();
    const texts: string[] = [];
    for (let i = 0; i < BACKUPS_KEPT + 3; i++) {
      texts.push(readFileSync(file, 'utf8'));
      // two changes in the same second get two backups
      const now = new Date(Date.UTC(2026, 11, 1, 15, 59, Math.floor(i / 2)));
      const status = run(home, { unregister: i % 2 === 1, replace: { now } }).status;
      expect(status).toBe(i % 2 === 1 ? 'removed' : 'added');
    }
    const backups = backupsOf(file);
    expect(backups.map((b) => b.slice(file.length))).toEqual([
      '.aiti-backup-20261201T155901Z-2',
      '.aiti-backup-20261201T155902Z',
      '.aiti-backup-20261201T155902Z-2',
      '.aiti-backup-20261201T155903Z',
      '.aiti-backup-20261201T155903Z-2',
    ]);
    // each backup holds the text its change replaced, the newest the last one
    expect(backups.map((b) => readFileSync(b, 'utf8'))).toEqual(texts.slice(-BACKUPS_KEPT));
  });

  it('a config the client rewrites after it was read is read and planned again, never written over', () => {
    const { home, file } = claudeHome();
    let rewrites = 0;
    const report = run(home, {
      replace: {
        beforeReplace: () => {
          if (rewrites++ === 0) clientRewrites(file, 'numStartups', 13);
        },
      },
    });
    expect(report.status).toBe('added');
    expect(rewrites).toBe(2);
    const config = read(file);
    // the client's change and the aiti entry are both there
    expect(config.numStartups).toBe(13);
    expect(config.mcpServers).toEqual({ aiti: { type: 'stdio', ...shim } });
    // the backup holds the client's version, the one that was replaced
    expect(read(backupsOf(file)[0] ?? '').numStartups).toBe(13);
    expect(backupsOf(file)).toHaveLength(1);
  });

  it('gives up with a clear error when the client rewrites it every time, leaving its last version', () => {
    const { home, file } = claudeHome();
    let n = 100;
    const report = run(home, { replace: { beforeReplace: () => clientRewrites(file, 'numStartups', ++n) } });
    expect(report.status).toBe('error');
    expect(report.error).toBe(
      `${file} was rewritten by another program (Claude Code itself?) each of the 3 times aiti-bridge was about to change it; left as it was: run --register-shim again once Claude Code is idle`,
    );
    expect(read(file)).toEqual({ numStartups: 103, mcpServers: {} });
    expect(backupsOf(file)).toEqual([]);
    expect(readdirSync(home).sort()).toEqual(['.claude', '.claude.json']);
  });

  it('a client rewriting its big config in a loop meanwhile never reads half a file, and keeps its keys', async () => {
    // a long-used Claude Code config: many projects, a couple of megabytes
    const projects = Object.fromEntries(
      Array.from({ length: 2500 }, (_, i) => [
        `/home/me/src/project-${i}`,
        { allowedTools: [], history: 'x'.repeat(400) },
      ]),
    );
    const { home, file } = claudeHome({ numStartups: 0, mcpServers: {}, projects });
    const loops = 40;
    const client = spawn(
      process.execPath,
      [
        '-e',
        `
const fs = require('node:fs');
const [file, loops] = [process.argv[1], Number(process.argv[2])];
let torn = 0;
// a whole file starts with { and ends with }: cheap enough to look between every write
const whole = (text) => text.startsWith('{') && text.trimEnd().endsWith('}');
for (let i = 1; i <= loops; i++) {
  let text = '';
  for (let look = 0; look < 20; look++) if (!whole((text = fs.readFileSync(file, 'utf8')))) torn++;
  let data;
  try { data = JSON.parse(text); } catch { torn++; continue; }
  data.numStartups = i;
  fs.writeFileSync(file + '.client-tmp', JSON.stringify(data));
  fs.renameSync(file + '.client-tmp', file);
}
console.log(JSON.stringify({ torn }));`,
        file,
        String(loops),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    client.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const done = new Promise<void>((resolve) => client.on('exit', () => resolve()));
    const statuses = new Set<string>();
    let running = true;
    void done.then(() => (running = false));
    for (let i = 0; running || i < 2; i++) {
      const report = run(home, { unregister: i % 2 === 1 });
      statuses.add(report.status === 'error' ? (report.error ?? '') : report.status);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await done;
    expect(JSON.parse(out)).toEqual({ torn: 0 });
    // every change either happened or was given up with the clear reason; none failed otherwise
    for (const status of statuses)
      expect(status).toMatch(/^(added|removed|absent|unchanged|.* was rewritten by another program .*)$/);
    const config = read(file);
    expect(config.numStartups).toBe(loops);
    expect(Object.keys(config.projects as object)).toHaveLength(2500);
  }, 60_000);

  it('refuses a config that is not valid JSON: says where, and leaves it, with no backup', () => {
    const { home, file } = claudeHome();
    const broken = '{\n  "numStartups": 12,\n  "mcpServers": {\n    "github": { "command": "gh" \n  }\n';
    writeFileSync(file, broken);
    const before = statSync(file).mtimeMs;
    const report = run(home);
    expect(report.status).toBe('error');
    expect(report.error).toBe(
      `${file}: not valid JSON (CloseBraceExpected at line 6, column 1); fix or remove the file first; left as it was`,
    );
    expect(readFileSync(file, 'utf8')).toBe(broken);
    expect(statSync(file).mtimeMs).toBe(before);
    expect(readdirSync(home).sort()).toEqual(['.claude', '.claude.json']);
  });

  it('writes through a symlinked config (a dotfiles checkout): the link stays a link', () => {
    const { home } = claudeHome();
    const dotfiles = join(home, 'dotfiles');
    mkdirSync(dotfiles);
    const real = join(dotfiles, 'claude.json');
    writeFileSync(real, JSON.stringify({ mcpServers: {} }));
    const link = join(home, '.claude.json');
    spawnSync('rm', [link]);
    symlinkSync(real, link);
    expect(run(home).status).toBe('added');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(read(real).mcpServers).toEqual({ aiti: { type: 'stdio', ...shim } });
    expect(backupsOf(real)).toHaveLength(1);
  });

  it('creates the missing config of an installed client readable by its user only', () => {
    const home = tempDir('aiti-home-');
    mkdirSync(join(home, '.cursor'));
    const report = registerShim({ home, shim, platform: 'linux', env: {} });
    expect(report.clients.find((c) => c.client === 'Cursor')?.status).toBe('added');
    expect(statSync(join(home, '.cursor', 'mcp.json')).mode & 0o777).toBe(0o600);
    expect(read(join(home, '.cursor', 'mcp.json'))).toEqual({ mcpServers: { aiti: shim } });
  });
});

